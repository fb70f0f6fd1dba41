package trace

import "github.com/envbisect/envbisect/systable"

// FDChange returns what the completed call c did to its process's fd
// table, as row (c's) says: systable.FDChangeOf given the memory it reads,
// the fd pair the call wrote and openat2's struct open_how.
func (c *Call) FDChange(row *systable.Syscall) systable.FDChange {
	if c.NoReturn {
		return systable.FDChange{}
	}
	var pair, how []byte
	if row.Effects&systable.CreatesFDPair != 0 {
		pair = c.argData(row.StructArg(systable.StructFDPair), Out)
	}
	if row.Effects&systable.CreatesFD != 0 {
		how = c.argData(row.StructArg(systable.StructOpenHow), In)
	}
	return row.FDChangeOf(c.Args, c.Ret, pair, how)
}

// argData returns the whole memory of argument i captured in direction
// dir, or nil.
func (c *Call) argData(i int, dir Dir) []byte {
	if i < 0 {
		return nil
	}
	if m := c.MemOfDir(uint8(i), PartWhole, dir); m != nil {
		return m.Data
	}
	return nil
}

// OpensReadOnly reports whether c, an open as row (c's) describes it,
// asked for read access only: systable's OpensReadOnly given openat2's
// struct open_how.
func (c *Call) OpensReadOnly(row *systable.Syscall) bool {
	return row.OpensReadOnly(c.Args, c.argData(row.StructArg(systable.StructOpenHow), In))
}
