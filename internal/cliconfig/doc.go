// Package cliconfig reads the CLI configuration the way Terraform 1.5.7
// does: the file named by TF_CLI_CONFIG_FILE (or the older
// TERRAFORM_CONFIG), else ~/.terraformrc plus every *.tfrc and *.tfrc.json
// file in ~/.terraform.d, then TF_PLUGIN_CACHE_DIR and
// TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE over them. It keeps only
// what provider installation needs: plugin_cache_dir and the
// provider_installation block (dev_overrides, filesystem_mirror, direct,
// network_mirror), and it turns them, or the implied local mirror
// directories when there is no such block, into the search methods of
// getproviders.
//
// It also keeps the tokens of credentials blocks, which Config.Token
// combines with TF_TOKEN_ variables for registry requests. Other settings
// Terraform reads there (host, credentials_helper, disable_checkpoint,
// ...) are accepted and ignored. Nothing here reads
// the process environment or home directory itself: the caller passes an
// Env, so tests and the command layer decide.
//
// Imports:
//
//	deny internal/... # it turns a CLI configuration into getproviders' methods and knows nothing else
//	allow internal/addrs internal/getproviders
package cliconfig
