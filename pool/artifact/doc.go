// Package artifact carries engines to a pool's workers through the JetStream object store: an
// engine is packed (a single program as it is, or a directory as a deterministic tar.gz),
// named by the SHA-256 of the packed bytes, and described by a Manifest (its kind, size,
// platform, the runtime it needs and the command that runs it inside the artifact).
//
// Submitting a run uploads each engine once: an object whose name is already in the bucket is
// not sent again, and one over the size limit is refused. A worker fetches an artifact by its
// manifest, hashes what it reads and refuses anything whose hash is not the name it asked for
// (a corrupted or substituted object), and only then unpacks it, into a cache directory named
// by the hash, so that a second fetch costs nothing. Unpacking trusts no archive: entries must
// stay inside the tree (no "..", no absolute names, no entry below a symbolic link, links
// whose target stays inside), only files, directories and such links are made, permission bits
// are kept but setuid and the like are not, and the total size and the number of entries are
// bounded.
//
// A #! script given alone is its artifact alone: CheckTravels refuses one that names files
// beside it (a wrapper that execs its binary), which no worker could start.
//
// A Host is what a worker is (runtime.GOOS/GOARCH) and which runtimes it has on its PATH
// (python3, node); Runnable says whether a manifest can run there, and why not. An artifact's
// engine is a run's engine like any other (driver.EngineConfig): Engine turns a manifest and
// its cache directory into the command and directory a worker starts, and CheckOverride lets a
// worker's own -engine stand in for an artifact only when it packs to the same SHA-256.
//
// A worker runs the programs that submitters upload, as fishtest and OpenBench workers do:
// the hash proves that the bytes are the ones submitted, not that they are harmless.
package artifact
