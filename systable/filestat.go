package systable

// FileStat is what a stat-family buffer says of a file, decoded from the
// struct layouts (struct stat per architecture, struct statx): the
// members a comparison of two environments reads. Valid says which the
// buffer holds (statx's stx_mask may leave some out).
type FileStat struct {
	Mode     uint32 // type and permission bits (S_IFMT | 07777)
	UID, GID uint32
	Size     int64
	MtimeNS  int64 // modification time, ns since the Unix epoch
	Valid    StatValid
}

// StatValid is a set of FileStat members a buffer holds.
type StatValid uint8

// The members of a FileStat.
const (
	StatType StatValid = 1 << iota
	StatPerm
	StatOwner
	StatSize
	StatMtime
)

// statx's stx_mask bits (linux/stat.h), the same on every architecture.
const (
	maskType  = 0x1
	maskMode  = 0x2
	maskUID   = 0x8
	maskGID   = 0x10
	maskMtime = 0x40
	maskSize  = 0x200
)

// stxMtimeNsec is struct statx_timestamp's tv_nsec of stx_mtime (a
// __u32 after the 8-byte tv_sec at stx_mtime's offset).
var stxMtimeNsec = Field{Name: "stx_mtime.tv_nsec", Off: 120, Size: 4, Kind: FieldUint}

// DecodeFileStat decodes b, a buffer of struct kind is (StructStat, laid
// out as on arch, or StructStatx); ok is false for another kind, an
// unknown architecture or a buffer too short for its layout.
func DecodeFileStat(arch string, is StructKind, b []byte) (st FileStat, ok bool) {
	switch is {
	case StructStat:
		lay, ok := StatStruct(arch)
		if !ok || len(b) < lay.Size {
			return FileStat{}, false
		}
		f := lay.Field
		return FileStat{
			Mode: uint32(f("st_mode").Uint(b)), UID: uint32(f("st_uid").Uint(b)), GID: uint32(f("st_gid").Uint(b)),
			Size:    f("st_size").Int(b),
			MtimeNS: f("st_mtime").Int(b)*1e9 + f("st_mtime_nsec").Int(b),
			Valid:   StatType | StatPerm | StatOwner | StatSize | StatMtime,
		}, true
	case StructStatx:
		lay := StructOf("struct statx")
		if len(b) < lay.Size {
			return FileStat{}, false
		}
		f := lay.Field
		mask := f("stx_mask").Uint(b)
		st := FileStat{
			Mode: uint32(f("stx_mode").Uint(b)), UID: uint32(f("stx_uid").Uint(b)), GID: uint32(f("stx_gid").Uint(b)),
			Size:    int64(f("stx_size").Uint(b)),
			MtimeNS: f("stx_mtime").Int(b)*1e9 + int64(stxMtimeNsec.Uint(b)),
		}
		for _, m := range []struct {
			bits uint64
			v    StatValid
		}{{maskType, StatType}, {maskMode, StatPerm}, {maskUID | maskGID, StatOwner}, {maskSize, StatSize}, {maskMtime, StatMtime}} {
			if mask&m.bits == m.bits {
				st.Valid |= m.v
			}
		}
		return st, true
	}
	return FileStat{}, false
}
