// Release builds the release archives of Hive Arbiter, one per platform, and their checksums:
//
//	go run ./internal/cmd/release -version 0.2.0 [-o dist] [os/arch ...]
//
// For each platform (all of linux/amd64, linux/arm64, windows/amd64, windows/arm64,
// darwin/amd64 and darwin/arm64 when none is named) it builds arbiter and hivebot with
// go build -trimpath and CGO_ENABLED=0, the version stamped into arbiter.Version and the
// commit of the checkout into what "arbiter -version" prints, and packs them with README.md
// and the licences of everything compiled into them (Go's and each dependency module's,
// under licenses/) into arbiter-VERSION-OS-ARCH.tar.gz, or .zip for Windows, in one
// top-level folder of the same name. SHA256SUMS in the output folder lists the archives'
// checksums in the format sha256sum -c reads.
//
// The version is required: arbiter.Version in the source is what a build without a stamp
// reports. It imports none of the arbiter's packages, so that go run builds it quickly.
// .ci/wine-smoke runs it for windows/amd64 and checks the archive, its checksum and the
// binaries in it under wine.
package main
