package openings

// Describe is describe, for the tests of package openings_test, which generate books with
// the evaluators of openings/evaluate (an import cycle for the package's own tests).
var Describe = describe
