package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"hivearbiter/arbiter/compliance"
	"hivearbiter/arbiter/driver"
	"hivearbiter/enginekit/uhpserver/uhpfake"
	"hivearbiter/internal/testkit/golden"
)

// scrubDiagnosis makes the words of a check or a match the same from run to run: the test
// binary's path, timings, and the random positions of a check.
var (
	gameStrings  = regexp.MustCompile(`"Base(\+[MLP]+)?;(NotStarted|InProgress|Draw|WhiteWins|BlackWins);(White|Black)\[\d+\][^"]*"`)
	secondsTexts = regexp.MustCompile(`\d+(\.\d+)? ?(s|ms)\b`)
)

func scrubDiagnosis(text string) string {
	text = strings.ReplaceAll(text, os.Args[0], "TEST-BINARY")
	text = strings.ReplaceAll(text, filepath.Base(os.Args[0]), "TEST-BINARY")
	text = gameStrings.ReplaceAllString(text, `"GAMESTRING"`)
	return secondsTexts.ReplaceAllString(text, "T")
}

// TestCheckAndMatchDiagnoseAlike: for every diagnosis of the table there is a fake engine that
// shows it (uhpfake.Faulty), and of each, "arbiter check" and "arbiter match" say the same: the
// check's first line names the fault's cause and fix, the match's refusal or record quotes the
// same advice, and neither says anything of the check's rows that concludes from a failed row.
// The words of both are kept in golden files, testdata/diagnoses/ID.golden.
func TestCheckAndMatchDiagnoseAlike(t *testing.T) {
	for _, d := range driver.Diagnoses() {
		t.Run(d.ID, func(t *testing.T) {
			t.Parallel()
			faulty, ok := uhpfake.Faulty(d.ID)
			if !ok {
				t.Fatalf("uhpfake has no engine for the diagnosis %s", d.ID)
			}
			checkFirst, checkOut := checkFaulty(t, faulty)
			if !strings.Contains(checkFirst, d.Cause) || !strings.Contains(checkFirst, d.Fix) {
				t.Errorf("check's first line does not name the cause and fix of %s:\n%s", d.ID, checkFirst)
			}
			if strings.Contains(checkOut, "(see above)") {
				t.Errorf("a row of the check concludes from another's failure:\n%s", checkOut)
			}
			said := matchFaulty(t, faulty)
			if !strings.Contains(said, d.Advice()) {
				t.Errorf("the match does not give the advice of %s:\n%s", d.ID, said)
			}
			golden.Check(t, filepath.Join("testdata", "diagnoses", d.ID+".golden"),
				[]byte(scrubDiagnosis("check: "+checkFirst+"\nmatch: "+said+"\n")))
		})
	}
}

// checkFaulty runs a quick check of a fake engine and returns the first line of its report and
// the whole of it.
func checkFaulty(t *testing.T, cfg uhpfake.Config) (first, out string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	args := append([]string{"check", "-quick", "-plies", "4", "-start-timeout", "2"}, fakeEngineSpec("faulty", cfg)...)
	run(context.Background(), args, &stdout, &stderr)
	first, _, _ = strings.Cut(stdout.String(), "\n")
	return first, stdout.String()
}

// matchFaulty plays a match of a fake engine against a good one and returns the line that
// says what became of the faulty one: the refusal before game 1, or the first game's detail
// or warning that names it.
func matchFaulty(t *testing.T, cfg uhpfake.Config) string {
	t.Helper()
	args := append(fakeEngineSpec("faulty", cfg), fakeEngineArgs("good", "random")...)
	args = append(args, "-games", "2", "-seed", "1", "-start-timeout", "2", "-each", "st=0.3", "fractional=true",
		"-maxplies", "10", "-openings", "plies=2")
	recs, output, err := playMatch(t, args...)
	for _, r := range recs {
		for _, w := range r.Warnings {
			if w.Engine == "faulty" {
				return "warning: " + w.Text
			}
		}
		if faultyWhite := r.White.Name == "faulty"; r.Culprit == "White" && faultyWhite || r.Culprit == "Black" && !faultyWhite {
			return fmt.Sprintf("%s: %s", r.Reason, r.Detail)
		}
	}
	if err != nil {
		for line := range strings.SplitSeq(output, "\n") {
			if strings.Contains(line, `"faulty"`) {
				return line
			}
		}
		return err.Error()
	}
	return "no word of the faulty engine:\n" + output
}

// An engine with five faults, each in another command, is told of all five in one check.
func TestCheckNamesFiveFaultsInOneRun(t *testing.T) {
	_, out := checkFaulty(t, uhpfake.FiveFaults())
	for _, id := range []string{driver.DiagnosisBannerOnInfo, driver.DiagnosisGameStringIgnore, driver.DiagnosisLinesBeforeReply,
		driver.DiagnosisMoveCase, driver.DiagnosisCrash} {
		d, _ := driver.LookupDiagnosis(id)
		if !strings.Contains(out, d.Fault+" (") {
			t.Errorf("the check does not name %q among the causes:\n%s", d.Fault, out)
		}
	}
	if !strings.Contains(out, "Faults by their first cause (5):") {
		t.Errorf("the check does not count five causes:\n%s", out)
	}
}

// An engine that answers nothing after its banner costs a check well under a minute: the rows
// that need an answer are not checked once the first finds none, and the optional ones keep to
// their budget.
func TestCheckOfASilentEngineEndsSoon(t *testing.T) {
	t.Parallel() // it waits out its engine's silence
	silent := uhpfake.Config{ID: "silent v1", Faults: []uhpfake.Fault{{On: "ready", Then: "hang"}}}
	var stdout, stderr bytes.Buffer
	args := append([]string{"check", "-plies", "4"}, fakeEngineSpec("silent", silent)...)
	began := time.Now()
	run(context.Background(), args, &stdout, &stderr)
	took := time.Since(began)
	t.Logf("the check of a silent engine took %v", took)
	// newgame Base waits its 5 s, the optional rows their budget, and restarts are quick.
	if limit := 5*time.Second + compliance.DefaultOptionalBudget + 15*time.Second; took > limit {
		t.Errorf("the check took %v, over %v:\n%s", took, limit, stdout.String())
	}
	first, _, _ := strings.Cut(stdout.String(), "\n")
	d, _ := driver.LookupDiagnosis(driver.DiagnosisNoOutput)
	if !strings.Contains(first, d.Headline()) {
		t.Errorf("first line %q does not name %s", first, d.ID)
	}
	if !strings.Contains(stdout.String(), compliance.NotChecked+"newgame Base (which failed)") {
		t.Errorf("the rows after the silence were not marked as not checked:\n%s", stdout.String())
	}
}

// -transcript keeps the conversation with every process the check starts, each start noted
// with the row it is for, as a match's -transcripts does.
func TestCheckTranscript(t *testing.T) {
	t.Parallel() // it waits out its engine's missing "ok"
	path := filepath.Join(t.TempDir(), "check.txt")
	faulty, _ := uhpfake.Faulty(driver.DiagnosisMissingOK)
	var stdout, stderr bytes.Buffer
	args := append([]string{"check", "-quick", "-plies", "4", "-transcript", path}, fakeEngineSpec("faulty", faulty)...)
	run(context.Background(), args, &stdout, &stderr)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`* check: started for the row "start and banner"`, `* check: started for the row "bestmove time 00:00:01"`,
		"> bestmove depth 1", "< wS1"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the transcript lacks %q:\n%s", want, data)
		}
	}
}
