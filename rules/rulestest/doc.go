// Package rulestest is test support for code built on the referee, as net/http/httptest is
// for code built on net/http: it reads Mzinga's test files, which rules/testdata keeps, and
// plays random games for tests that want many positions.
//
// It uses only the standard library and package rules, and no production code imports it.
// The rules package's own external tests (package rules_test) use it too; its internal tests
// cannot, since rulestest imports rules.
package rulestest
