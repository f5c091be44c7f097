package pool

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"hivearbiter/arbiter"
	"hivearbiter/arbiter/driver"
	"hivearbiter/distributed"
	"hivearbiter/elo"
	"hivearbiter/openings"
	"hivearbiter/pool/artifact"
	"hivearbiter/pool/people"
	"hivearbiter/results"
	"hivearbiter/rules"
)

// submitForm is the submission form's fields, as typed.
type submitForm struct {
	Engine, Name, Options [2]string
	Limit, GameType       string
	Test                  string // sprt or games
	Elo0, Elo1            string
	Alpha, Beta           string
	Model                 string
	Pairs                 string // the SPRT's cap, or a match's length, in game pairs
	RandomPlies, MaxPlies string
	Priority              string
	Note, Event           string
}

// defaultForm is the form as it first shows: an SPRT of a patch against its base.
func defaultForm() *submitForm {
	return &submitForm{Name: [2]string{"patch", "base"}, Limit: "tc=10+0.1", GameType: "Base+MLP", Test: "sprt",
		Elo0: "0", Elo1: "5", Alpha: "0.05", Beta: "0.05", Model: "normalized", Pairs: "1000", RandomPlies: "4",
		MaxPlies: "0", Priority: "0"}
}

func readForm(r *http.Request) *submitForm {
	f := &submitForm{}
	for i := range 2 {
		n := strconv.Itoa(i + 1)
		f.Engine[i], f.Name[i], f.Options[i] = r.PostFormValue("engine"+n), strings.TrimSpace(r.PostFormValue("name"+n)), r.PostFormValue("options"+n)
	}
	f.Limit, f.GameType, f.Test = r.PostFormValue("limit"), r.PostFormValue("gametype"), r.PostFormValue("test")
	f.Elo0, f.Elo1, f.Alpha, f.Beta, f.Model = r.PostFormValue("elo0"), r.PostFormValue("elo1"), r.PostFormValue("alpha"), r.PostFormValue("beta"), r.PostFormValue("model")
	f.Pairs, f.RandomPlies, f.MaxPlies, f.Priority = r.PostFormValue("pairs"), r.PostFormValue("randomplies"), r.PostFormValue("maxplies"), r.PostFormValue("priority")
	f.Note, f.Event = r.PostFormValue("note"), r.PostFormValue("event")
	return f
}

// FormError is a field of the submission form that is wrong.
type FormError struct{ Field, Problem string }

// Error names the field and what is wrong with it.
func (e *FormError) Error() string { return "pool: " + e.Field + ": " + e.Problem }

// maxNote bounds the note and the event's name.
const maxNote = 2000

// submission builds the run the form describes, for a person.
func (s *Server) formSubmission(ctx context.Context, f *submitForm, person string) (*Submission, error) {
	number := func(field, text string) (float64, error) {
		v, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, &FormError{field, fmt.Sprintf("%q is not a number", text)}
		}
		return v, nil
	}
	whole := func(field, text string) (int, error) {
		v, err := strconv.Atoi(strings.TrimSpace(text))
		if err != nil {
			return 0, &FormError{field, fmt.Sprintf("%q is not a whole number", text)}
		}
		return v, nil
	}
	if len(f.Note) > maxNote || len(f.Event) > maxNote {
		return nil, &FormError{"note", fmt.Sprintf("at most %d characters", maxNote)}
	}
	tc, err := driver.ParseTimeControl(f.Limit)
	if err != nil {
		return nil, &FormError{"limit", err.Error()}
	}
	sub := &Submission{Share: 1, Note: f.Note, Person: person}
	var cfg arbiter.Config
	for i := range 2 {
		field := fmt.Sprintf("engine %d", i+1)
		var c CatalogEngine
		if err := s.get(ctx, catalogKey(f.Engine[i]), &c); err != nil {
			return nil, &FormError{field, "choose an engine of the catalog"}
		}
		e := c.Engine
		if f.Name[i] != "" {
			e.Name = f.Name[i]
		}
		if e.Options, err = parseOptions(f.Options[i]); err != nil {
			return nil, &FormError{field, err.Error()}
		}
		e.Time = tc
		cfg.Engines = append(cfg.Engines, e)
		sub.Expect = append(sub.Expect, distributed.EngineIdentity{Name: e.Name, ID: c.ID})
		sub.Manifests = append(sub.Manifests, c.Manifest)
	}
	if cfg.Engines[0].Name == cfg.Engines[1].Name {
		return nil, &FormError{"names", "the two engines need different names"}
	}
	if cfg.Rounds, err = whole("pairs", f.Pairs); err != nil {
		return nil, err
	}
	if cfg.Rounds < 1 {
		return nil, &FormError{"pairs", "at least 1"}
	}
	if cfg.Openings.RandomPlies, err = whole("random plies", f.RandomPlies); err != nil {
		return nil, err
	}
	if cfg.Adjudication.MaxPlies, err = whole("max plies", f.MaxPlies); err != nil {
		return nil, err
	}
	if sub.Priority, err = whole("priority", f.Priority); err != nil {
		return nil, err
	}
	cfg.GameType, cfg.Event, cfg.Openings = f.GameType, strings.TrimSpace(f.Event), openings.Config{RandomPlies: cfg.Openings.RandomPlies}
	switch f.Test {
	case "sprt":
		t := &arbiter.SPRTConfig{Model: f.Model}
		for _, n := range []struct {
			field string
			text  string
			to    *float64
		}{{"elo0", f.Elo0, &t.Elo0}, {"elo1", f.Elo1, &t.Elo1}, {"alpha", f.Alpha, &t.Alpha}, {"beta", f.Beta, &t.Beta}} {
			if *n.to, err = number(n.field, n.text); err != nil {
				return nil, err
			}
		}
		cfg.SPRT = t
	case "games":
	default:
		return nil, &FormError{"test", "an SPRT or a number of games"}
	}
	if err := cfg.Normalize(); err != nil {
		return nil, &FormError{"run", err.Error()}
	}
	sub.Config = cfg
	return sub, nil
}

// parseOptions reads an engine's options, one NAME=VALUE a line.
func parseOptions(text string) ([]driver.EngineOption, error) {
	var out []driver.EngineOption
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if !ok || name == "" {
			return nil, fmt.Errorf("option %q: want NAME=VALUE", line)
		}
		if strings.IndexFunc(line, unicode.IsControl) >= 0 {
			return nil, fmt.Errorf("option %q: no control characters", name)
		}
		out = append(out, driver.EngineOption{Name: name, Value: value})
	}
	return out, nil
}

// preview is what a test is expected to cost, shown before it is submitted.
type preview struct {
	Test  string
	H0    string
	H1    string
	Draws float64
	Rows  []costRow
	Cap   int
	Games int
	Diff  []string // the settings that differ between the two engines
}

type costRow struct {
	Elo    float64
	PassH1 float64
	Pairs  string
	Games  string
}

// costOf is a submission's expected cost: for an SPRT, what arbiter sprt-calc says it costs
// at its bounds and around them (Wald's approximation, pairs of independent games drawn at
// results.AssumedDrawRatio).
func costOf(sub *Submission) (*preview, error) {
	cfg := sub.Config
	p := &preview{Cap: cfg.Rounds, Games: cfg.Rounds * cfg.GamesPerPairing, Diff: differences(cfg.Engines)}
	if cfg.SPRT == nil {
		return p, nil
	}
	test := cfg.SPRT.Test()
	if err := test.Validate(); err != nil {
		return nil, &FormError{"SPRT", err.Error()}
	}
	if !test.Model.Pentanomial() {
		return nil, &FormError{"model", fmt.Sprintf("the %s model is trinomial only: the pool plays game pairs", test.Model)}
	}
	lower, upper := test.Bounds()
	p.Test = fmt.Sprintf("SPRT [%g, %g] %s, alpha %g, beta %g: LLR bounds (%.2f, %.2f)", test.Elo0, test.Elo1, test.Model, test.Alpha, test.Beta, lower, upper)
	p.H0, p.H1 = test.Hypotheses(cfg.Engines[0].Name, cfg.Engines[1].Name)
	p.Draws = 100 * results.AssumedDrawRatio
	shape := elo.IndependentPairs(results.AssumedDrawRatio)
	for _, at := range test.ExpectationElos() {
		e, err := test.Expect(shape, at)
		if err != nil {
			return nil, err
		}
		row := costRow{Elo: at, PassH1: 100 * e.PassH1, Pairs: "endless", Games: "endless"}
		if !math.IsInf(e.Pairs, 0) && !math.IsNaN(e.Pairs) {
			row.Pairs, row.Games = fmt.Sprintf("%.1f", e.Pairs), fmt.Sprintf("%.1f", 2*e.Pairs)
		}
		p.Rows = append(p.Rows, row)
	}
	return p, nil
}

// differences are the settings that differ between two engines: what the test tests.
func differences(es []driver.EngineConfig) []string {
	if len(es) != 2 {
		return nil
	}
	opts := func(e driver.EngineConfig) map[string]string {
		m := map[string]string{}
		for _, o := range e.Options {
			m[o.Name] = o.Value
		}
		return m
	}
	a, b := opts(es[0]), opts(es[1])
	shown := func(m map[string]string, name string) string {
		if v, ok := m[name]; ok {
			return strconv.Quote(v)
		}
		return "its default"
	}
	var out []string
	seen := map[string]bool{}
	for _, e := range es {
		for _, o := range e.Options {
			va, oka := a[o.Name]
			vb, okb := b[o.Name]
			if seen[o.Name] || oka == okb && va == vb {
				continue
			}
			seen[o.Name] = true
			out = append(out, fmt.Sprintf("%s: %s %s, %s %s", o.Name, es[0].Name, shown(a, o.Name), es[1].Name, shown(b, o.Name)))
		}
	}
	if strings.Join(es[0].Command, " ") != strings.Join(es[1].Command, " ") {
		out = append(out, fmt.Sprintf("program: %s runs %s, %s runs %s", es[0].Name, strings.Join(es[0].Command, " "), es[1].Name, strings.Join(es[1].Command, " ")))
	}
	return out
}

func (s *Server) submitPage(w http.ResponseWriter, r *http.Request) {
	if _, ok := people.Person(r); !ok {
		http.Redirect(w, r, "/login?next=/submit", http.StatusSeeOther)
		return
	}
	s.renderSubmit(w, r, http.StatusOK, defaultForm(), nil, "")
}

func (s *Server) renderSubmit(w http.ResponseWriter, r *http.Request, status int, f *submitForm, pv *preview, problem string) {
	p := &webPage{Form: f, Preview: pv, Error: problem}
	var err error
	if p.Catalog, err = s.Catalog(r.Context()); err != nil && p.Error == "" {
		p.Error = err.Error()
	}
	renderWeb(w, r, status, "submit", p)
}

// submitPost previews the form's test (its expected cost), or with confirm submits it.
func (s *Server) submitPost(w http.ResponseWriter, r *http.Request) {
	a, ok := people.Person(r)
	if !ok {
		http.Error(w, "log in to submit", http.StatusUnauthorized)
		return
	}
	f := readForm(r)
	sub, err := s.formSubmission(r.Context(), f, a.Name)
	if err != nil {
		s.renderSubmit(w, r, http.StatusBadRequest, f, nil, err.Error())
		return
	}
	pv, err := costOf(sub)
	if err != nil {
		s.renderSubmit(w, r, http.StatusBadRequest, f, nil, err.Error())
		return
	}
	if r.PostFormValue("confirm") != "1" {
		s.renderSubmit(w, r, http.StatusOK, f, pv, "")
		return
	}
	st, err := s.Submit(sub)
	if err != nil {
		status := http.StatusBadRequest
		if errors.As(err, new(*LimitError)) {
			status = http.StatusTooManyRequests
		}
		s.renderSubmit(w, r, status, f, pv, err.Error())
		return
	}
	http.Redirect(w, r, "/runs/"+st.ID+"/manage", http.StatusSeeOther)
}

// MaxUpload bounds an engine uploaded from the browser.
const MaxUpload = 64 << 20

// ErrArtifactName is an uploaded engine's file name that is not a plain file name.
var ErrArtifactName = errors.New("pool: an engine's file name is a plain name (letters, digits, '.', '-', '_'; no path, not hidden)")

// artifactName checks an uploaded file's name as the browser sent it (multipart's own
// FileName keeps only its last element: a path would pass unseen): it becomes a file in a
// directory of the server's, and the name of a worker's copy.
func artifactName(name string) error {
	if name == "" || len(name) > 128 || name[0] == '.' {
		return ErrArtifactName
	}
	for _, r := range name {
		if !(r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return ErrArtifactName
		}
	}
	return nil
}

// sentName is the file name of an uploaded part as the browser sent it.
func sentName(h *multipart.FileHeader) string {
	_, params, err := mime.ParseMediaType(h.Header.Get("Content-Disposition"))
	if err != nil {
		return ""
	}
	return params["filename"]
}

// uploadEngine adds an engine uploaded from the browser to the store and the catalog. The
// server starts it once, as arbiter submit does on the submitter's machine, to read its id:
// so only an approver or an admin, trusted to run a program on the server, may upload.
func (s *Server) uploadEngine(w http.ResponseWriter, r *http.Request) {
	a, ok := people.Person(r)
	if !ok || !a.Role.AtLeast(people.Approver) {
		s.renderSubmit(w, r, http.StatusForbidden, defaultForm(), nil, "only an approver or an admin uploads an engine (a user chooses one of the catalog)")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxUpload+1<<20)
	if err := r.ParseMultipartForm(8 << 20); err != nil {
		s.renderSubmit(w, r, http.StatusRequestEntityTooLarge, defaultForm(), nil, fmt.Sprintf("the upload: %v (at most %d MiB)", err, MaxUpload>>20))
		return
	}
	defer r.MultipartForm.RemoveAll()
	c, err := s.addUpload(r, a.Name)
	if err != nil {
		s.renderSubmit(w, r, http.StatusBadRequest, defaultForm(), nil, err.Error())
		return
	}
	f := defaultForm()
	f.Engine = [2]string{c.Key, c.Key}
	s.renderSubmit(w, r, http.StatusOK, f, nil, "")
}

func (s *Server) addUpload(r *http.Request, person string) (CatalogEngine, error) {
	file, header, err := r.FormFile("program")
	if err != nil {
		return CatalogEngine{}, fmt.Errorf("pool: the upload has no program: %w", err)
	}
	defer file.Close()
	if err := artifactName(sentName(header)); err != nil {
		return CatalogEngine{}, err
	}
	name := strings.TrimSpace(r.PostFormValue("name"))
	if name == "" {
		name = strings.TrimSuffix(header.Filename, filepath.Ext(header.Filename))
	}
	dir, err := os.MkdirTemp("", "arbiter-upload-")
	if err != nil {
		return CatalogEngine{}, fmt.Errorf("pool: %w", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, header.Filename)
	out, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o755)
	if err != nil {
		return CatalogEngine{}, fmt.Errorf("pool: %w", err)
	}
	_, err = io.Copy(out, io.LimitReader(file, MaxUpload+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return CatalogEngine{}, fmt.Errorf("pool: %w", err)
	}
	e := driver.EngineConfig{Name: name, Command: []string{path}}
	ctx, cancel := context.WithTimeout(r.Context(), time.Minute)
	defer cancel()
	ids, err := distributed.Identify(ctx, []driver.EngineConfig{e}, rules.BaseMLP.String(), 10*time.Second)
	if err != nil {
		return CatalogEngine{}, fmt.Errorf("pool: the server could not start the engine to read its id: %w", err)
	}
	m, _, err := s.store.Upload(ctx, artifact.Source{Path: path})
	if err != nil {
		return CatalogEngine{}, err
	}
	return s.catalogAdd(CatalogEngine{Name: name, ID: ids[0].ID, Engine: artifact.RunEngine(e, m), Manifest: m, By: person}, true)
}
