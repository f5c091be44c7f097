//go:build !windows

package proc

import "io/fs"

// withExtension is the path itself: outside Windows a program runs by its name as given.
func withExtension(path string) string { return path }

// notRunnable says, as the end of a sentence about the program, why a file that exists cannot be
// run, or "" when it can: outside Windows (Unix, Plan 9) a program needs an execute bit.
func notRunnable(st fs.FileInfo, path string) string {
	if st.Mode()&0o111 == 0 {
		return "is not executable (chmod +x " + path + ")"
	}
	return ""
}
