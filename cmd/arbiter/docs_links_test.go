package main

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"
)

// markdownPage is what the link check needs of a Markdown page: the anchors of its headings and
// its links, with their line numbers.
type markdownPage struct {
	anchors map[string]bool
	links   []markdownLink
}

type markdownLink struct {
	line   int
	target string
}

var (
	markdownLinkPattern = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]*)(?:\s+"[^"]*")?\)`)
	codeSpanPattern     = regexp.MustCompile("`[^`]*`")
	headingPattern      = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
)

// parseMarkdown finds the headings and links of a page, outside fenced code blocks and code
// spans, as GitHub renders them.
func parseMarkdown(text string) markdownPage {
	page := markdownPage{anchors: map[string]bool{}}
	seen := map[string]int{}
	inFence := false
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		if m := headingPattern.FindStringSubmatch(line); m != nil {
			// A heading's anchor is its slug; a repeated slug gets -1, -2, ... as on GitHub.
			slug := headingSlug(m[2])
			if n := seen[slug]; n > 0 {
				page.anchors[fmt.Sprintf("%s-%d", slug, n)] = true
			} else {
				page.anchors[slug] = true
			}
			seen[slug]++
		}
		for _, m := range markdownLinkPattern.FindAllStringSubmatch(codeSpanPattern.ReplaceAllString(line, "code"), -1) {
			page.links = append(page.links, markdownLink{line: i + 1, target: m[1]})
		}
	}
	return page
}

// headingSlug is GitHub's anchor of a heading: the text as rendered (a link's text, no code
// marks), lower case, spaces as hyphens, and nothing else but letters, digits, - and _.
func headingSlug(heading string) string {
	heading = markdownLinkPattern.ReplaceAllStringFunc(heading, func(link string) string {
		return link[1:strings.Index(link, "](")]
	})
	var slug strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
			slug.WriteRune(r)
		case r == ' ':
			slug.WriteByte('-')
		}
	}
	return slug.String()
}

// checkLinks checks the relative links of pages in fsys: each must lead to a file or directory
// of fsys, and an #anchor to a heading of the Markdown page it names. Links with a scheme
// (https:, mailto:) are not followed. It returns one problem per broken link, and the pages
// each page links to.
func checkLinks(fsys fs.FS, pages []string) (problems []string, linked map[string][]string) {
	parsed := map[string]markdownPage{}
	parse := func(name string) (markdownPage, error) {
		if p, ok := parsed[name]; ok {
			return p, nil
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return markdownPage{}, err
		}
		parsed[name] = parseMarkdown(string(data))
		return parsed[name], nil
	}
	linked = map[string][]string{}
	for _, page := range pages {
		p, err := parse(page)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		for _, l := range p.links {
			if strings.Contains(l.target, ":") {
				continue
			}
			where := fmt.Sprintf("%s:%d: link %q", page, l.line, l.target)
			file, anchor, _ := strings.Cut(l.target, "#")
			target := page
			if file != "" {
				target = path.Join(path.Dir(page), file)
			}
			if target == ".." || strings.HasPrefix(target, "../") || path.IsAbs(file) {
				problems = append(problems, where+": leads out of the repository")
				continue
			}
			if _, err := fs.Stat(fsys, target); err != nil {
				problems = append(problems, where+": no such file")
				continue
			}
			linked[page] = append(linked[page], target)
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(target, ".md") {
				problems = append(problems, where+": an anchor in a file that is not Markdown")
				continue
			}
			tp, err := parse(target)
			if err != nil {
				problems = append(problems, where+": "+err.Error())
				continue
			}
			if !tp.anchors[anchor] {
				problems = append(problems, fmt.Sprintf("%s: %s has no heading #%s", where, target, anchor))
			}
		}
	}
	return problems, linked
}

func TestCheckLinks(t *testing.T) {
	fsys := fstest.MapFS{
		"README.md": {Data: []byte("# Title\n\n## Quick start\n\nSee [docs](docs/a.md) and [a heading](#quick-start).\n")},
		"docs/a.md": {Data: []byte("# Page A\n\n## Writing a bot: the one-engine model\n\n## Notes\n\n## Notes\n\n" +
			"```sh\n# not a heading\n```\n")},
		"docs/pic.png":   {Data: []byte("png")},
		"configs/x.toml": {Data: []byte("")},
	}
	tests := []struct {
		name, text string
		problem    string // "" for none
	}{
		{"a file", "[a](a.md)", ""},
		{"a picture", "![pic](pic.png)", ""},
		{"a directory", "[configs](../configs)", ""},
		{"a file outside docs", "[x](../configs/x.toml)", ""},
		{"an anchor with punctuation", "[bot](a.md#writing-a-bot-the-one-engine-model)", ""},
		{"a repeated heading", "[notes](a.md#notes-1)", ""},
		{"an anchor of this page", "[top](#page-b)", ""},
		{"a URL", "[UHP](https://example.net/missing.md#nowhere)", ""},
		{"a link in code", "`[x](missing.md)`", ""},
		{"a missing file", "[b](missing.md)", "no such file"},
		{"a missing picture", "![pic](docs/pic.png)", "no such file"},
		{"a missing anchor", "[a](a.md#nowhere)", "has no heading #nowhere"},
		{"a code comment is no heading", "[a](a.md#not-a-heading)", "has no heading #not-a-heading"},
		{"a third repeat", "[notes](a.md#notes-2)", "has no heading #notes-2"},
		{"a missing anchor of this page", "[top](#nowhere)", "has no heading #nowhere"},
		{"out of the repository", "[up](../../x.md)", "leads out of the repository"},
		{"an anchor in a picture", "[p](pic.png#x)", "not Markdown"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fsys["docs/b.md"] = &fstest.MapFile{Data: []byte("# Page B\n\n" + tc.text + "\n")}
			problems, _ := checkLinks(fsys, []string{"docs/b.md"})
			switch {
			case tc.problem == "" && len(problems) > 0:
				t.Errorf("%s: %v", tc.text, problems)
			case tc.problem != "" && (len(problems) != 1 || !strings.Contains(problems[0], tc.problem)):
				t.Errorf("%s: got %q, want one problem with %q", tc.text, problems, tc.problem)
			}
		})
	}
	if problems, _ := checkLinks(fsys, []string{"README.md"}); len(problems) > 0 {
		t.Errorf("README.md: %v", problems)
	}
}

// TestDocsLinks checks every relative link of the README and the docs: each leads to a file,
// and each #anchor to a heading.
func TestDocsLinks(t *testing.T) {
	pages := docPages(t)
	problems, _ := checkLinks(os.DirFS(repoRoot), pages)
	for _, p := range problems {
		t.Error(p)
	}
}

// TestDocsLinkedFromREADME checks that a newcomer can reach every page of docs/ by following
// links from the README.
func TestDocsLinkedFromREADME(t *testing.T) {
	pages := docPages(t)
	_, linked := checkLinks(os.DirFS(repoRoot), pages)
	reached := map[string]bool{"README.md": true}
	for queue := []string{"README.md"}; len(queue) > 0; queue = queue[1:] {
		for _, next := range linked[queue[0]] {
			if !reached[next] && slices.Contains(pages, next) {
				reached[next] = true
				queue = append(queue, next)
			}
		}
	}
	for _, page := range pages {
		if !reached[page] {
			t.Errorf("%s cannot be reached by links from README.md", page)
		}
	}
}
