package testenv

import (
	"os/exec"
	"testing"
)

// ValidateXML checks the XML file at path against the XML Schema at schema with xmllint
// (Debian's libxml2-utils), failing the test with xmllint's complaint. Without xmllint the test
// is skipped, or failed when CI is true.
func ValidateXML(t testing.TB, path, schema string) {
	t.Helper()
	xmllint := NeedProgram(t, "xmllint", "apt-get install libxml2-utils")
	out, err := exec.Command(xmllint, "-noout", "-schema", schema, path).CombinedOutput()
	if err != nil {
		t.Errorf("%s does not validate against %s: %v\n%s", path, schema, err, out)
	}
}
