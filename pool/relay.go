package pool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"hivearbiter/pool/artifact"
)

// Workers do not read the artifacts' bucket: the server hands each worker the artifacts of
// the run it is assigned to, piece by piece, and nothing else. A NATS user's permissions are
// fixed when it is let in and cannot follow the runs a worker is sent to; the server's
// answers can. They work the same on an existing NATS server (-nats), whose permissions are
// not the pool's.

func artifactSubject(worker string) string { return "arbiterpool.artifact." + worker }

// ArtifactRequest is a worker asking the server for the bytes of an artifact from Offset on.
// The answer carries them as its data (at most a chunk, below the NATS server's max_payload),
// with the artifact's size in the header headerSize, or a reason in headerRefused (the worker
// may not have it) or headerError (the server could not read it).
type ArtifactRequest struct {
	SHA256 string `json:"sha256"`
	Offset int64  `json:"offset"`
}

// The headers of the answer to an ArtifactRequest.
const (
	headerSize     = "Arbiter-Artifact-Size"
	headerRefused  = "Arbiter-Artifact-Refused"
	headerError    = "Arbiter-Artifact-Error"
	headerNotFound = "Arbiter-Artifact-Not-Found"
	headerUnusable = "Arbiter-Artifact-Unusable"
)

// ArtifactUnusableError is an artifact the server cannot hand out for good: its bytes in the
// store do not hash to its name, or are over the size limit. A worker keeps away from the
// run, as from one whose artifact it found bad itself.
type ArtifactUnusableError struct {
	SHA256, Reason string
}

// Error names the artifact and why the server cannot hand it out.
func (e *ArtifactUnusableError) Error() string {
	return fmt.Sprintf("pool: the server cannot hand out artifact %s: %s", e.SHA256, e.Reason)
}

// ArtifactRefusedError is the server refusing a worker an artifact: it is not assigned to an
// active run that uses it, or it is not (or no longer) one of the pool's workers.
type ArtifactRefusedError struct {
	SHA256, Reason string
}

// Error names the artifact and why the server refuses it to this worker.
func (e *ArtifactRefusedError) Error() string {
	return fmt.Sprintf("pool: the server refuses artifact %s to this worker: %s", e.SHA256, e.Reason)
}

// relayChunk is the most an answer carries: an artifact chunk, or less when the NATS server's
// max_payload leaves no room for it and the headers.
func relayChunk(maxPayload int64) int {
	return int(max(min(artifact.ChunkSize, maxPayload-8<<10), 1<<10))
}

// onArtifact answers a worker's ArtifactRequest.
func (s *Server) onArtifact(m *nats.Msg) {
	// The subject, which the worker's permissions bind to its key, names it.
	worker := m.Subject[strings.LastIndexByte(m.Subject, '.')+1:]
	reply := nats.NewMsg(m.Reply)
	var req ArtifactRequest
	err := json.Unmarshal(m.Data, &req)
	if err != nil {
		err = fmt.Errorf("pool: unreadable request: %w", err)
	} else {
		err = s.mayFetch(worker, req.SHA256, time.Now())
	}
	if err == nil {
		buf := make([]byte, relayChunk(s.nc.MaxPayload()))
		// The depot bounds a copy from the bucket by the artifact's size, as a fetch is, and
		// Close by the handlers' context.
		n, size, rerr := s.depot.ReadAt(s.hctx, req.SHA256, buf, req.Offset)
		reply.Data, err = buf[:n], rerr
		reply.Header.Set(headerSize, strconv.FormatInt(size, 10))
	}
	var (
		refused *ArtifactRefusedError
		hash    *artifact.HashMismatchError
		large   *artifact.TooLargeError
	)
	switch {
	case errors.As(err, &refused):
		reply.Header.Set(headerRefused, refused.Reason)
		s.printf("Worker %s was refused artifact %s: %s\n", worker, req.SHA256, refused.Reason)
	case errors.Is(err, artifact.ErrNotFound):
		reply.Header.Set(headerNotFound, err.Error())
		s.printf("Worker %s asked for artifact %s, which is not in the store\n", worker, req.SHA256)
	case errors.As(err, &hash) || errors.As(err, &large):
		reply.Header.Set(headerUnusable, err.Error())
		s.printf("Artifact %s cannot be handed out: %v\n", req.SHA256, err)
	case err != nil:
		reply.Header.Set(headerError, err.Error())
		s.printf("Artifact %s for worker %s: %v\n", req.SHA256, worker, err)
	}
	m.RespondMsg(reply)
}

// mayFetch says why a worker may not be handed an artifact, or nil when it may: it is one of
// the pool's workers, not revoked (when the pool's NATS server is its own), and assigned to an
// active run that uses the artifact (a worker joining a run was assigned to it).
func (s *Server) mayFetch(worker, sha string, now time.Time) error {
	if s.ids != nil {
		s.idMu.Lock()
		u := s.ids.Users[worker]
		ok := u != nil && u.Role == RoleWorker && u.Revoked.IsZero()
		s.idMu.Unlock()
		if !ok {
			return &ArtifactRefusedError{SHA256: sha, Reason: worker + " is not one of the pool's workers"}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.runs {
		a, ok := r.assigned[worker]
		if !ok || !a.until.After(now) || r.state.State != StateActive || r.cancel == nil || r.sub == nil {
			continue
		}
		if slices.ContainsFunc(r.sub.Manifests, func(m artifact.Manifest) bool { return m.SHA256 == sha && sha != "" }) {
			// A worker fetching its run's artifacts is joining it: each piece keeps its
			// assignment, which a long download would otherwise outlast (the worker asks
			// again only once it plays), and be refused the rest.
			if later := s.assignmentEnd(now); a.until.Before(later) {
				a.until = later
				r.assigned[worker] = a
			}
			return nil
		}
	}
	return &ArtifactRefusedError{SHA256: sha, Reason: "no active run this worker is assigned to uses it"}
}

// relayGetter is a worker's artifact.Getter: it asks the server.
type relayGetter struct {
	nc     *nats.Conn
	worker string
}

// Get asks for the artifact's first piece, which says its size.
func (g relayGetter) Get(ctx context.Context, sha string) (int64, io.ReadCloser, error) {
	r := &relayReader{ctx: ctx, g: g, sha: sha, size: -1}
	if err := r.next(); err != nil {
		return 0, nil, err
	}
	return r.size, r, nil
}

// relayReader reads an artifact from the server a piece at a time, each asked for when the
// one before is read: the worker sets the pace, and holds one piece at most.
type relayReader struct {
	ctx       context.Context // the transfer's
	g         relayGetter
	sha       string
	off, size int64
	piece     []byte
}

func (r *relayReader) Read(p []byte) (int, error) {
	if len(r.piece) == 0 {
		if r.off >= r.size {
			return 0, io.EOF
		}
		if err := r.next(); err != nil {
			return 0, err
		}
	}
	n := copy(p, r.piece)
	r.piece = r.piece[n:]
	return n, nil
}

func (r *relayReader) Close() error { return nil }

// next asks for the piece at r.off.
func (r *relayReader) next() error {
	b, _ := json.Marshal(ArtifactRequest{SHA256: r.sha, Offset: r.off})
	m, err := r.g.nc.RequestWithContext(r.ctx, artifactSubject(r.g.worker), b)
	if err != nil {
		return fmt.Errorf("pool: asking the server for artifact %s: %w", r.sha, err)
	}
	if why := m.Header.Get(headerRefused); why != "" {
		return &ArtifactRefusedError{SHA256: r.sha, Reason: why}
	}
	if why := m.Header.Get(headerNotFound); why != "" {
		return fmt.Errorf("%w: %s (the server says: %s)", artifact.ErrNotFound, r.sha, why)
	}
	if why := m.Header.Get(headerUnusable); why != "" {
		return &ArtifactUnusableError{SHA256: r.sha, Reason: why}
	}
	if why := m.Header.Get(headerError); why != "" {
		return fmt.Errorf("pool: the server could not read artifact %s: %s", r.sha, why)
	}
	size, err := strconv.ParseInt(m.Header.Get(headerSize), 10, 64)
	switch {
	case err != nil:
		return fmt.Errorf("pool: artifact %s: the server's answer has no size: %w", r.sha, err)
	case r.size >= 0 && size != r.size:
		return fmt.Errorf("pool: artifact %s: its size changed from %d to %d bytes", r.sha, r.size, size)
	case len(m.Data) == 0 && r.off < size:
		return fmt.Errorf("pool: artifact %s: the server sent nothing at offset %d of %d", r.sha, r.off, size)
	case r.off+int64(len(m.Data)) > size:
		return fmt.Errorf("pool: artifact %s: the server sent more than its %d bytes", r.sha, size)
	}
	r.size, r.piece = size, m.Data
	r.off += int64(len(m.Data))
	return nil
}
