// Package doccheck holds one test, TestExportedNamesDocumented, that fails for every exported
// name of the module without a doc comment: the rule of golint and revive's "exported" check
// (STYLE.md: a doc comment on every exported name), held by a test rather than by a linter
// that the module does not depend on. It has no code of its own, so nothing links it.
package doccheck
