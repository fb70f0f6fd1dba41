package trace

// DirStat is a directory on the path of a call as record found it
// (lstat, from the calling process's root) the first time a call named a
// path under it: its mode, owner and group. The explanation of a call
// denied here (EACCES, EPERM) compares its parents' modes with these.
type DirStat struct {
	Path string `cbor:"1,keyasint" json:"path"`
	Mode uint32 `cbor:"2,keyasint" json:"mode"` // st_mode: type and permission bits
	UID  uint32 `cbor:"3,keyasint" json:"uid"`
	GID  uint32 `cbor:"4,keyasint" json:"gid"`
}
