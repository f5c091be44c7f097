package pool

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"hivearbiter/arbiter/driver"
	"hivearbiter/pool/artifact"
)

// CatalogEngine is an engine the pool's artifact store holds and knows how to start: one a
// run used (submitted with "arbiter submit", which uploaded it), or one an approver uploaded
// from the browser. The submission form offers them, so that a test of an option or of a new
// build is a choice, not an upload.
type CatalogEngine struct {
	Key      string              `json:"key"`
	Name     string              `json:"name"`
	ID       string              `json:"id"` // what it says of itself (its id line)
	Engine   driver.EngineConfig `json:"engine"`
	Manifest artifact.Manifest   `json:"manifest"`
	Added    time.Time           `json:"added"`
	By       string              `json:"by,omitempty"`
}

// catalogKey is the bucket's key of a catalog engine.
func catalogKey(key string) string { return "engine." + key }

// engineKey names an engine of the catalog by its artifact and the command that runs it
// there (one directory may hold several engines).
func engineKey(m artifact.Manifest, e driver.EngineConfig) string {
	sum := sha256.Sum256([]byte(m.SHA256 + "\x00" + strings.Join(e.Command, "\x00") + "\x00" + strings.Join(e.Env, "\x00") + "\x00" + e.Protocol))
	return hex.EncodeToString(sum[:8])
}

// catalogRun adds the artifact engines of a run to the catalog (those it has are kept).
func (s *Server) catalogRun(r *run) {
	for i, e := range r.sub.Config.Engines {
		if i >= len(r.sub.Manifests) || r.sub.Manifests[i].SHA256 == "" || i >= len(r.sub.Expect) {
			continue
		}
		s.catalogAdd(CatalogEngine{Name: e.Name, ID: r.sub.Expect[i].ID, Engine: e, Manifest: r.sub.Manifests[i], By: r.sub.Person}, false)
	}
}

// catalogAdd writes an engine to the catalog; an engine there is replaced only when replace.
func (s *Server) catalogAdd(c CatalogEngine, replace bool) (CatalogEngine, error) {
	c.Engine.Options, c.Engine.Time = nil, driver.TimeControl{} // a run's own, not the engine's
	c.Key = engineKey(c.Manifest, c.Engine)
	if c.Added.IsZero() {
		c.Added = time.Now().UTC()
	}
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	if !replace {
		if _, err := s.kv.Get(ctx, catalogKey(c.Key)); err == nil {
			return c, nil
		}
	}
	return c, s.put(catalogKey(c.Key), c)
}

// Catalog lists the engines of the catalog, by name.
func (s *Server) Catalog(ctx context.Context) ([]CatalogEngine, error) {
	lister, err := s.kv.ListKeysFiltered(ctx, "engine.>")
	if err != nil {
		return nil, fmt.Errorf("pool: the engines' catalog: %w", err)
	}
	var out []CatalogEngine
	for key := range lister.Keys() {
		e, err := s.kv.Get(ctx, key)
		if err != nil {
			continue // deleted since listed
		}
		var c CatalogEngine
		if err := json.Unmarshal(e.Value(), &c); err != nil {
			return nil, fmt.Errorf("pool: reading %s: %w", key, err)
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b CatalogEngine) int { return strings.Compare(a.Name+a.Key, b.Name+b.Key) })
	return out, nil
}
