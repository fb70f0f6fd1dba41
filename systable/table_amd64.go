package systable

// amd64Rows returns the x86-64 rows. PLACEHOLDER: filled in by the table work.
func amd64Rows() []Syscall {
	return []Syscall{
		{Nr: 0, Name: "read", Args: []Arg{{Name: "fd", Kind: FD}, {Name: "buf", Kind: OutBuf, Len: Len{From: LenRet}}, {Name: "count", Kind: Int}}, Ret: Int, Effects: UsesFD},
	}
}

func amd64Ioctls() []IoctlRow { return nil }
