package render

import (
	"strings"
	"testing"
)

// TestTableMarkdown: the rules under a Markdown header by alignment and width, an untitled
// column left blank in the header, and cells written as given, an empty one between its spaces.
func TestTableMarkdown(t *testing.T) {
	for _, tc := range []struct {
		name  string
		table Table
		want  string
	}{
		{"default rules", Table{Header: []string{"a", "b"}, Rows: [][]string{{"1", "x|y"}}},
			"| a | b |\n|---|---|\n| 1 | x|y |\n"},
		{"aligned, width 3", Table{Header: []string{"a", "b", "c"}, Align: []Align{AlignNone, AlignRight}, Rows: [][]string{{"1", "", "3"}}},
			"| a | b | c |\n|---|--:|---|\n| 1 |  | 3 |\n"},
		{"aligned, width 4", Table{Header: []string{"a", "b"}, Align: []Align{AlignLeft, AlignRight}, RuleWidth: 4},
			"| a | b |\n|:---|---:|\n"},
		{"untitled column", Table{Header: []string{"Condition", ""}, Rows: [][]string{{"Limit", "st=1"}}},
			"| Condition | |\n|---|---|\n| Limit | st=1 |\n"},
	} {
		var b strings.Builder
		if err := tc.table.WriteMarkdown(&b); err != nil || b.String() != tc.want {
			t.Errorf("%s: %v\n%s\nwant\n%s", tc.name, err, b.String(), tc.want)
		}
	}
}

// TestTableText: a terminal's table is an ASCII grid with every cell aligned right, whatever
// the Markdown alignment says.
func TestTableText(t *testing.T) {
	table := NewTable("Name", "Games")
	table.Align = []Align{AlignLeft, AlignRight}
	table.Append("alpha", "12")
	table.Append("b", "3")
	var b strings.Builder
	if err := table.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `+-------+-------+
|  Name | Games |
+-------+-------+
| alpha |    12 |
|     b |     3 |
+-------+-------+
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
