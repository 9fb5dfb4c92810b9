// Command cairn plans and applies Terraform-language configuration.
//
// Boundary: main reads the process (the arguments, the GOGC and
// GOMEMLIMIT defaults, CAIRN_CPU_PROFILE) and hands the rest to
// internal/command.
//
// Imports:
//
//	deny internal/... # main hands everything to the command line
//	allow internal/command
//	uses flags environment terminal # a binary's main is where the process is read
package main
