// Package depgraph will model the resources a trace touches (fds, paths,
// cwd, processes, sockets, pipes, mappings), link each call to the calls
// that last defined what it uses, and group linked calls. It reads traces
// only and never touches a kernel. Not built yet: it is the work of the
// locate issue; its inputs are the effect columns of package systable.
package depgraph
