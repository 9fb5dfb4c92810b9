// Command hello prints hello: a main package for testprocess's own tests
// to build.
package main

import "fmt"

func main() { fmt.Println("hello") }
