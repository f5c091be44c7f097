//go:build windows

package proc

import (
	"io/fs"
	"os"
	"testing"
)

// On Windows a file runs by its extension, from PATHEXT, and a name without one is looked up as
// exec.LookPath and exec.Command do. Permission bits mean nothing here (every file is 0666 or
// 0444 to Go), so the files are made without them.
func TestLocateWindows(t *testing.T) {
	file := func(names ...string) map[string]os.FileMode {
		m := map[string]os.FileMode{}
		for _, n := range names {
			m[n] = 0o644
		}
		return m
	}
	cases := []locateCase{
		{name: "an .exe", files: file("engine.exe"), program: `.\engine.exe`},
		{name: "an .exe, forward slash", files: file("engine.exe"), program: "./engine.exe"},
		{name: "an .exe, absolute", files: file("engine.exe"), program: `{dir}\engine.exe`},
		{name: "a .bat", files: file("engine.bat"), program: `.\engine.bat`},
		{name: "a .cmd", files: file("engine.cmd"), program: `.\engine.cmd`},
		{name: "a .com", files: file("engine.com"), program: `.\engine.com`},
		{name: "extension in capitals", files: file("ENGINE.EXE"), program: `.\ENGINE.EXE`},
		{name: "no extension finds the .exe", files: file("engine.exe"), program: `.\engine`},
		{name: "no extension finds the .bat", files: file("engine.bat"), program: `.\engine`},
		{name: "a script is not a program", files: file("engine.py"), program: `.\engine.py`,
			want: `the program ".\\engine.py" in {dir} is not a program Windows runs: its name must end in one of`, cause: fs.ErrPermission},
		{name: "no extension, no program", files: file("engine"), program: `.\engine`,
			want: "is not a program Windows runs", cause: fs.ErrPermission},
		{name: "no extension, nothing", program: `.\engine`, want: `the program ".\\engine" does not exist in {dir}`, cause: fs.ErrNotExist},
		{name: "a directory named like a program", files: map[string]os.FileMode{"engine.exe": fs.ModeDir | 0o755}, program: `.\engine.exe`,
			want: "is a directory, not a program", cause: fs.ErrPermission},
	}
	t.Setenv("PATHEXT", ".COM;.EXE;.BAT;.CMD")
	runLocateCases(t, cases)

	// PATHEXT decides: without .BAT in it, a .bat is not a program.
	t.Setenv("PATHEXT", ".EXE")
	runLocateCases(t, []locateCase{
		{name: "PATHEXT without .bat", files: file("engine.bat"), program: `.\engine.bat`, want: "must end in one of .exe (PATHEXT)", cause: fs.ErrPermission},
		{name: "PATHEXT with .exe", files: file("engine.exe"), program: `.\engine`},
	})
}
