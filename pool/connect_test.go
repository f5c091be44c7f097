package pool

import (
	"errors"
	"path/filepath"
	"testing"
)

// TestConnectAsReadsTheRolesFile: without a path, a role's credentials are the file the server
// wrote in its directory; a file that cannot be read is a *CredentialsError (the path given is
// wrong), not a failure to connect.
func TestConnectAsReadsTheRolesFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if got := CredsPath(dir, RoleSubmitter); got != filepath.Join(dir, "submitter.creds") {
		t.Errorf("CredsPath = %s", got)
	}
	for _, path := range []string{"", filepath.Join(dir, "other.creds")} {
		_, err := ConnectAs(dir, RoleAdmin, path)
		if !errors.As(err, new(*CredentialsError)) {
			t.Errorf("path %q: %v; want a *CredentialsError", path, err)
		}
	}
}
