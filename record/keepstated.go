package record

import "github.com/envbisect/envbisect/pkgdb"

// KeepsStated implements ptrace.StatedFilter: of the regular files the
// command only stat'ed, a recording keeps those a package owns in the
// root the command sees (and, within --max-content, their content, as of
// the files it opened: Keep decides that as for any file).
//
// Why: an interpreter stats a module's source and loads a compiled cache
// of it. Python stats NAME.py and reads __pycache__/NAME.TAG.pyc when the
// cache's header matches the source's size and mtime, and opens the .py
// only when it does not; a recording of the files the command opened
// would hold the caches and not the sources. To put a package back in a
// materialized run (locate --materialize: "python3-idna 3.3 is not
// installed here"), and for its fix to be validated, a run needs both,
// with their good content: without the source, Python ignores the cache.
// Files no package owns (a project's own modules, a virtualenv's) are
// not kept when only stat'ed: the recording would grow by every file a
// program stats (a build tool stats a whole tree) for objects that no
// package groups, and a missing one of those is met where it is read.
//
// It runs on the tracer thread, which waits for the package database's
// index at the first such file: the owners an earlier recording looked
// up in the same database (ownerCache) spare it that.
//
// A file under a directory no package may own (pkgdb.Unowned: /tmp,
// /home, ...), reached without leaving such directories, is declined
// without a lookup: the owner cache would give the database's "no owner"
// for it anyway, and the tracer does not wait for that cache to load
// (git status in a home directory stats every file of its work tree).
func (c *contentStore) KeepsStated(path, resolved string) bool {
	if c.owners == nil || pkgdb.Unowned(path) && (resolved == "" || pkgdb.Unowned(resolved)) {
		return false
	}
	if c.ownerCache != nil {
		if pk, ok := c.ownerCache.get(path, resolved); ok {
			return pk.Name != ""
		}
	}
	pk, err := c.owners.Owner(path, resolved)
	if err == nil && pk != nil && c.ownerCache != nil {
		c.ownerCache.put(path, resolved, *pk)
	}
	return err == nil && pk != nil && pk.Name != ""
}
