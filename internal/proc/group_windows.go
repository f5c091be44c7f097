//go:build windows

package proc

import (
	"fmt"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// sysProcAttr starts the program suspended, so that afterStart can put it in a job object
// before it runs a single instruction (and so before it can start a child outside the job),
// and in a console of its own without a window, so that a Ctrl-C event sent to that console
// reaches the program and its children and nothing else (see interrupt).
//
// It is not CREATE_NEW_PROCESS_GROUP: a process in a new group starts with Ctrl-C disabled,
// and the group could then be sent only CTRL_BREAK_EVENT, which engines do not take for
// Ctrl-C (the C runtime raises SIGBREAK for it, not SIGINT, and Python exits), and which wine
// does not deliver at all.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED | windows.CREATE_NO_WINDOW}
}

// procSys holds a handle on the program and the job object it runs in. Every process the
// program starts joins the job too, unless it asks to break away (which the job does not
// allow), so that killing the job kills the whole tree; and the job is made to kill what it
// holds when its last handle closes, so that engines die with the arbiter, as Pdeathsig does
// on Linux.
type procSys struct {
	mu     sync.Mutex
	handle windows.Handle // the program's; 0 once released
	job    windows.Handle
}

const processAccess = windows.PROCESS_SET_QUOTA | windows.PROCESS_TERMINATE |
	windows.PROCESS_SUSPEND_RESUME | windows.SYNCHRONIZE | windows.PROCESS_QUERY_LIMITED_INFORMATION

var ntResumeProcess = windows.NewLazySystemDLL("ntdll.dll").NewProc("NtResumeProcess")

// afterStart puts the suspended program in a new job object and lets it run. On error the
// caller kills the program, which is still suspended.
func (s *procSys) afterStart(cmd *exec.Cmd) (err error) {
	defer func() {
		if err != nil {
			s.release()
		}
	}()
	s.handle, err = windows.OpenProcess(processAccess, false, uint32(cmd.Process.Pid))
	if err != nil {
		return fmt.Errorf("opening the process: %w", err)
	}
	s.job, err = windows.CreateJobObject(nil, nil)
	if err != nil {
		return fmt.Errorf("creating a job object: %w", err)
	}
	var limits windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	limits.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(s.job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&limits)), uint32(unsafe.Sizeof(limits))); err != nil {
		return fmt.Errorf("setting the job object's limits: %w", err)
	}
	if err := windows.AssignProcessToJobObject(s.job, s.handle); err != nil {
		return fmt.Errorf("assigning the process to its job object: %w", err)
	}
	// os/exec closes the thread's handle, so the process is resumed whole.
	if status, _, _ := ntResumeProcess.Call(uintptr(s.handle)); status != 0 {
		return fmt.Errorf("resuming the process: %w", windows.NTStatus(status))
	}
	go ctrlC.warm()
	return nil
}

// release closes the handles, which kills whatever is left in the job.
func (s *procSys) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range []*windows.Handle{&s.job, &s.handle} {
		if *h != 0 {
			windows.CloseHandle(*h)
			*h = 0
		}
	}
}

// killGroup kills every process in the program's job object: the program, its children and
// theirs. A released job has killed what it held, so there is nothing left to kill.
func killGroup(p *Process) error {
	p.sys.mu.Lock()
	defer p.sys.mu.Unlock()
	if p.sys.job == 0 {
		return nil
	}
	return windows.TerminateJobObject(p.sys.job, 1)
}

// terminateGroup does nothing: Windows has no SIGTERM, and the console's close event would
// be taken for the user closing a window. A program asked to stop then gets the end of its
// input and, after the grace period, the kill.
func terminateGroup(p *Process) error { return nil }

// exited reports whether the program has exited, reaped or not.
func (s *procSys) exited() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.handle == 0 {
		return true
	}
	ev, err := windows.WaitForSingleObject(s.handle, 0)
	return err == nil && ev == windows.WAIT_OBJECT_0
}
