// Package golden compares the text a test produces with a golden file under testdata, and
// rewrites the golden files when the test binary runs with -update:
//
//	go test ./results/ -update
//
// A difference is reported line by line (the first lines that differ, quoted), so that a
// change in a long transcript or table is found at a glance. Only tests import this package.
package golden
