// Package pool is a long-lived server of many runs and the long-lived workers that play them,
// on NATS JetStream: what fishtest and OpenBench are to chess, for Hive engines.
//
// The server keeps a queue of runs (SPRT tests, fixed-length matches and gauntlets, and tunes:
// see tune.go, whose pairs the server hands out one by one), each with
// a priority and a share of the pool. Each run's state lives in a JetStream key-value bucket
// (ARBITER_POOL): its submission, its state (active, paused, finished, stopped, failed) and a
// summary of its results. Each active run is served by a distributed.Coordinator over its own
// work and results streams, with a records file on the server's disk: the same JSON Lines as a
// local run, written and synced before a game is counted, so "arbiter stats", "arbiter report"
// and their exit codes work on it unchanged. A server killed and started again finds its runs
// in the bucket and resumes each from its records file: a game recorded is never played again,
// and a result that was on its way is counted once (distributed.Coordinator's duplicates).
//
// Workers are distributed.Workers that stay connected across runs: a pool Worker asks the
// server for an assignment (giving its cores, platform and runtimes), plays the run it is
// given for a batch (distributed.Worker.Yield), and asks again, so that each worker goes to
// the run that is most behind its share among those of the highest priority that its platform
// can play.
//
// Identities: the server's NATS users are NKeys whose public keys it keeps in identities.json.
// "admin" (worker add and revoke), "submitter" (submit and control runs) and one user per
// worker, who may only pull and acknowledge work, publish results and heartbeats under its own
// name, greet coordinators and ask for its own assignment and artifacts. Each user subscribes
// to its own inbox prefix only (InboxPrefix), so no one reads the server's answers to
// another. The embedded NATS server asks the pool's server whom to let in (clientAuth), so
// adding a worker reloads nothing; revoking one drops its key and closes its connection at
// once, and it is refused from then on.
//
// People (package pool/people, people.go): a pool shared by a community has accounts in the
// same bucket (admin, approver, user), each with tokens for the command line. The submitter's
// credential carries a request over NATS; a token inside it names the person, whom the server
// checks against the run (onSubmitAs, onControlAs): a user controls their own runs, an approver
// any, and no one approves their own. Each run keeps an audit trail beside it ("audit.ID"). The
// dashboard's write side (webapp.go, submitweb.go) serves the people's pages, each run's
// management page and submission from the browser, behind net/http's CrossOriginProtection. A
// pool with no accounts behaves as before: the credential alone may do everything. An
// approver takes a worker's games out of a run (exclude.go): each record names its worker, so
// the run's records file is rewritten without them, and the run resumes without the worker.
//
// No run waits in silence (fit.go): at a submission and at each listing the server judges which
// of its current workers can play an active run and why each other cannot, and flags a run
// that none can play (RunState.Unplayable) in its state, its tables and its log. A run may
// scale its limits by each worker's speed (timescale.go, OpenBench's time scaling).
//
// Engines are artifacts (package pool/artifact): submit uploads each engine to the pool's
// object store, and a worker is given a run only when its platform and runtimes can run the
// run's artifacts; the server hands it those and no others (relay.go), and it checks their
// hash and caches them. A worker's own -engine
// stands in for an artifact only when it packs to the same SHA-256.
//
// The server's web pages (dashboard.go, runlist.go, testpage.go, listsite.go) are drawn from
// what it keeps: the dashboard of runs (newest first, a page at a time, filtered), lists and
// workers; a page per run, from its state and submission and its records file, kept after the
// run ends; and the sites of the lists it keeps, served read-only. They are read-only; other
// files add their routes to the same mux (dashboardHandler).
//
// A rating list (package ratinglist) can be kept by the server (list.go, KeepList): its
// batches are runs of the pool, submitted by the server itself, each appending to the list's
// one records file; the list's file is read again before each batch, so that a version added
// to it enters by itself, and a hook is given the records as the games arrive (to rewrite the
// list's site).
package pool
