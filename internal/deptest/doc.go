// Package deptest holds the import rules of the module, each written once with its reason,
// and checks them: TestImportRules runs "go list -deps" over the module's packages, once for
// each of Platforms (GOOS set, as files with build constraints differ), and fails on any
// package that depends, directly or through another, on what its rule forbids, or lacks what
// it asks for; a break found on some platforms only names them. docs/architecture.md shows
// the same rules, generated from Rules by Markdown (its test fails when the page and the
// rules differ).
//
// It is tailscale's tstest/deptest in shape: the map of the packages is only true if a test
// holds it.
package deptest
