// Package pkgdb finds the package that owns a file in the package
// database of a file system root, from the database's own files, without
// running the package manager: the explanation of a library or executable
// whose content differs names its package and version on both sides.
//
// # Mechanism
//
// A DB is opened on a root ("/" or a container's /proc/PID/root) and
// reads nothing until the first Owner call, which builds an index of the
// owned paths once (sync.Once, safe for the content goroutines of a
// recording). That first index holds only the paths with the usual name
// of a library or program (Usual: ".so", ".so.N", or in a bin or sbin
// directory; a tenth of a Debian system's); the first lookup of another
// path builds the whole index, once. A DB of OpenWhole builds the whole
// index at its first lookup (a recording looks up every file it keeps,
// configuration and modules among them). Directories are not indexed.
//
//   - dpkg: every /var/lib/dpkg/info/*.list (one owned path a line; the
//     file's name is the package, "zlib1g:amd64" for a Multi-Arch one)
//     into a map from path to package, and /var/lib/dpkg/status for each
//     installed package's Version and Architecture. The .list files read
//     are bounded (maxListBytes): a database past it is not indexed and
//     Owner says so rather than read without bound. Diversions are not
//     followed.
//   - apk: /lib/apk/db/installed, whose records give the package (P:),
//     its version (V:) and architecture (A:), each directory (F:) and
//     the files in it (R:).
//   - rpm's database (/var/lib/rpm: SQLite since rpm 4.16, Berkeley DB
//     before) is not read: that takes a database engine; Owner answers
//     ErrRPM.
//
// A lookup tries the path as given, then its /usr-merge alias (/lib/x
// for /usr/lib/x and back, likewise bin, sbin and the lib32/lib64/libx32
// directories), then the same for the path with its symbolic links
// followed when the caller gives one, and last, for a compiled Python
// module (dir/__pycache__/NAME.TAG.pyc, which Debian's packages do not
// list: py3compile makes it when the package is installed), its source
// dir/NAME.py. A path the database does not list
// has an Owner with no Name ("not owned by a package"); a root with no
// database has none (nil).
//
// On this project's VM (847 packages, 7.3 MB of .list files) the first
// index takes 50-65 ms of CPU and 39 MB to build, the whole one about
// twice that (docs/performance.md, BenchmarkDpkgIndex and
// BenchmarkDpkgIndexAll).
package pkgdb
