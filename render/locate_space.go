package render

import "github.com/envbisect/envbisect/depgraph"

// What a search ran over (LocateReport.Space.Over).
const (
	// SpaceDiffering: the start items and the resources whose results in
	// the run with nothing replayed differ from the recording's.
	SpaceDiffering = "differing"
	// SpaceAll: every replayable call, by prefix (the thesis' search),
	// when no set of differing resources made the command pass.
	SpaceAll = "all"
	// SpaceObjects: the object search's candidates (locate's default):
	// the objects, groups and start items of its first level.
	SpaceObjects = "objects"
)

// SearchSpace is what a locate search ran over.
type SearchSpace struct {
	// Over is SpaceDiffering, SpaceAll or SpaceObjects.
	Over string `json:"over"`
	// Candidates is how many units the search ran over: the start items
	// and the differing resources (SpaceDiffering), or the start items
	// and the replayable calls (SpaceAll). Runs are bounded by
	// ⌈log2 Candidates⌉ + 3.
	Candidates int `json:"candidates"`
	// StartItems name the start items that differ here ("env PATH",
	// "umask", "limit NOFILE"), in the order the search used them: the
	// units before the resources.
	StartItems []string `json:"start_items,omitempty"`
	// Resources are the resources that differ here, in the order the
	// search used them (their first call's order); under SpaceAll the
	// ones the search tried before falling back.
	Resources []SpaceResource `json:"resources,omitempty"`
	// Fallback says why the search fell back to every replayable call.
	Fallback string `json:"fallback,omitempty"`
}

// SpaceResource is one resource that differs here: a dependency group
// (a file with every open and stat of it, a directory's listing, a
// connection, the kernel's answers to one call).
type SpaceResource struct {
	Group depgraph.GroupID `json:"group"`
	Title string           `json:"title"`
	// First is its first recorded call; Differs the first call whose
	// live result differed from the recorded one (0: none observed, a
	// call the run never made).
	First   uint64 `json:"first"`
	Differs uint64 `json:"differs,omitempty"`
	// Calls is how many recorded calls it has.
	Calls int `json:"calls"`
}
