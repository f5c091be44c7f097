package results

import (
	"slices"
	"strings"
	"testing"
)

// An engine name that stands for several players is kept apart on each way it differs: time
// controls, game types and programs (the ids they gave); an empty id or game type (an older
// record's) tells none apart, and a name that is one player keeps its name.
func TestSeparatePlayers(t *testing.T) {
	rec := func(white, whiteID, black, blackID, tc, gameType string) Record {
		return Record{White: Player{Name: white, ID: whiteID, Time: tc}, Black: Player{Name: black, ID: blackID, Time: tc}, GameType: gameType}
	}
	recs := []Record{
		rec("nokamute", "nokamute 1.0.3", "hivebot", "hivebot 1", "st=1", "Base+MLP"),
		rec("hivebot", "hivebot 1", "nokamute", "mzinga 0.13", "st=1", "Base+MLP"),
		rec("hivebot", "hivebot 1", "nokamute", "", "st=1", "Base+MLP"),
		rec("hivebot", "hivebot 1", "mzinga", "mzinga 0.13", "st=1", "Base"),
		rec("mzinga", "mzinga 0.13", "hivebot", "hivebot 1", "st=1", "Base+MLP"),
	}
	lines := SeparatePlayers(recs)
	wantLines := []string{
		`engine hivebot plays games of 2 game types (Base, Base+MLP): rated apart as "hivebot [GAMETYPE]"; -merge-names rates it as one player`,
		`engine mzinga plays games of 2 game types (Base, Base+MLP): rated apart as "mzinga [GAMETYPE]"; -merge-names rates it as one player`,
		`engine nokamute is 2 programs by the id each gave (c88e is "mzinga 0.13", 79bb is "nokamute 1.0.3"): rated apart as "nokamute [id HASH]"; if they are one engine, -merge-names rates it as one player`,
	}
	if !slices.Equal(lines, wantLines) {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(wantLines, "\n"))
	}
	var names []string
	for _, r := range recs {
		names = append(names, r.White.Name+" - "+r.Black.Name)
	}
	want := []string{
		"nokamute [id 79bb] - hivebot [Base+MLP]",
		"hivebot [Base+MLP] - nokamute [id c88e]",
		"hivebot [Base+MLP] - nokamute",
		"hivebot [Base] - mzinga [Base]",
		"mzinga [Base+MLP] - hivebot [Base+MLP]",
	}
	if !slices.Equal(names, want) {
		t.Errorf("players:\n%s\nwant:\n%s", strings.Join(names, "\n"), strings.Join(want, "\n"))
	}
}

// A new build under an old name and id is another program when the run recorded its program
// (a rating list's hash of its files): its games are rated apart.
func TestSeparatePlayersByProgram(t *testing.T) {
	build := func(program string) Player { return Player{Name: "hivebot", ID: "hivebot 1", Program: program} }
	recs := []Record{
		{White: build("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"), Black: Player{Name: "mzinga", ID: "mzinga 0.13"}},
		{White: Player{Name: "mzinga", ID: "mzinga 0.13"}, Black: build("60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752")},
	}
	lines := SeparatePlayers(recs)
	if len(lines) != 1 || !strings.Contains(lines[0], `engine hivebot is 2 programs by the id each gave and the program recorded of it (`) ||
		!strings.Contains(lines[0], `is "hivebot 1" (program 9f86d081884c)`) || !strings.Contains(lines[0], `is "hivebot 1" (program 60303ae22b99)`) {
		t.Errorf("lines: %q", lines)
	}
	if recs[0].White.Name == recs[1].Black.Name || !strings.HasPrefix(recs[0].White.Name, "hivebot [id ") || recs[0].Black.Name != "mzinga" {
		t.Errorf("players %q and %q, against %q", recs[0].White.Name, recs[1].Black.Name, recs[0].Black.Name)
	}
}
