package trace

// Package is the package that owns a file in the package database of the
// environment it was found in (dpkg's, apk's), read from the database's
// files: record sets it on every file object (FileObject.Package), locate
// looks the same path up in the database of the environment its runs
// saw, and the search groups the files that differ by it.
type Package struct {
	// Manager is the database: PackageDpkg or PackageApk.
	Manager string `cbor:"1,keyasint" json:"manager"`
	// Name is the owning package ("zlib1g"); "" when the database holds
	// no package that owns the path.
	Name string `cbor:"2,keyasint,omitempty" json:"name,omitempty"`
	// Version is the package's installed version ("1:1.2.13.dfsg-1").
	Version string `cbor:"3,keyasint,omitempty" json:"version,omitempty"`
	// Arch is its architecture ("amd64", "all"), when the database names
	// one.
	Arch string `cbor:"4,keyasint,omitempty" json:"arch,omitempty"`
}

// The package databases a Package may come from.
const (
	PackageDpkg = "dpkg" // /var/lib/dpkg: info/*.list owns, status versions
	PackageApk  = "apk"  // /lib/apk/db/installed
)

// String is "zlib1g 1:1.2.13.dfsg-1 (dpkg)", or "no dpkg package".
func (p *Package) String() string {
	if p == nil {
		return "no package database"
	}
	if p.Name == "" {
		return "no " + p.Manager + " package"
	}
	s := p.Name
	if p.Version != "" {
		s += " " + p.Version
	}
	return s + " (" + p.Manager + ")"
}
