// Package bisect will search for the failure-inducing call: endpoint
// checks, binary search over replayed prefixes, flakiness handling and
// the culprit report. Not built yet: it is the work of the locate issue.
package bisect
