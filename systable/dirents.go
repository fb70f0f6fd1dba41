package systable

// Dirent is one record getdents64 or getdents fills in.
type Dirent struct {
	Ino    uint64
	Off    int64
	Reclen uint16
	Type   byte
	// Name is the name's bytes up to the record's end (NUL padding
	// included: callers cut at the first NUL as they print).
	Name []byte
}

// DirentDT is d_type's value for a directory.
const DirentDT = 4 // DT_DIR

// Dirents decodes the records of getdents64 (d64) or getdents in b; ok
// is false when the bytes do not parse.
func Dirents(b []byte, d64 bool) (out []Dirent, ok bool) {
	for len(b) > 0 {
		if len(b) < 19 {
			return nil, false
		}
		reclen := int(le.Uint16(b[16:]))
		if reclen < 19 || reclen > len(b) {
			return nil, false
		}
		d := Dirent{Ino: le.Uint64(b), Off: int64(le.Uint64(b[8:])), Reclen: uint16(reclen)}
		if d64 {
			d.Type, d.Name = b[18], b[19:reclen]
		} else {
			d.Type, d.Name = b[reclen-1], b[18:reclen-1]
		}
		out = append(out, d)
		b = b[reclen:]
	}
	return out, true
}
