// Package replay will run one semi-replay run: a plan saying which
// recorded calls replay, execute, or execute-then-overwrite, applied to a
// live process tree by the tracer core that record uses, with a verdict
// out. Not built yet: it is the work of the locate issue.
package replay
