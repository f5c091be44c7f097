// Testall runs the whole test suite, as the README says, on any machine that has Go:
//
//	go run ./internal/cmd/testall [go test flags] [packages]
//
// It runs "go test -json" over ./... (or the packages given, as ./dir or ../dir), adding -race
// when the Go toolchain can build with the race detector, which on Linux and Windows needs a C
// compiler. It prints the lines go test prints for each package (a failing test's output in
// full), then a summary: the tests skipped, grouped by the reason they give (a missing
// Chromium or Node, see internal/testkit/testenv; short mode), the tests that failed, whether the race
// detector was off and why, and a closing line "N passed, N failed, N skipped" that counts
// tests and subtests alike. A package that does not build, or a test binary that fails
// outside any test, counts as one failure. The exit status is 1 when anything failed.
//
// With CI=true the race detector is required: CI must run everything. A -race flag given
// (-race=false) is the caller's choice, and stands, CI or not.
package main
