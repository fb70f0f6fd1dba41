package systable

import (
	"strconv"
	"strings"
)

// Names of the schema's constants, for printing the table (envbisect
// syscalls) and for error messages. Each is the Go identifier.

var kindNames = [...]string{
	Int: "Int", Hex: "Hex", Ptr: "Ptr", FD: "FD", DirFD: "DirFD", Path: "Path",
	String: "String", Flags: "Flags", Enum: "Enum", Mode: "Mode", Signal: "Signal",
	PID: "PID", InBuf: "InBuf", OutBuf: "OutBuf", InOutBuf: "InOutBuf",
	StrArray: "StrArray", InIovec: "InIovec", OutIovec: "OutIovec",
	InMsghdr: "InMsghdr", OutMsghdr: "OutMsghdr",
	InMmsghdr: "InMmsghdr", OutMmsghdr: "OutMmsghdr",
}

// String returns the kind's name, "Kind(N)" for values with none.
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

var lenFromNames = [...]string{
	LenFixed: "LenFixed", LenArg: "LenArg", LenRet: "LenRet", LenArgPtr: "LenArgPtr",
	LenMinArgRet: "LenMinArgRet", LenIoctl: "LenIoctl", LenFdSet: "LenFdSet",
	LenFcntl: "LenFcntl", LenPrctl: "LenPrctl",
}

// String returns the name of the length source, "LenFrom(N)" for values
// with none.
func (l LenFrom) String() string {
	if int(l) < len(lenFromNames) && lenFromNames[l] != "" {
		return lenFromNames[l]
	}
	return "LenFrom(" + strconv.Itoa(int(l)) + ")"
}

// String describes a length in a few characters: "144", "ret", "arg2",
// "arg1*8", "ret*12", "min(arg2,ret)", "*arg5", "fdset(arg0)",
// "ioctl(arg1)", "fcntl(arg1)", "prctl(arg0)"; "" for no length.
func (l Len) String() string {
	arg := "arg" + strconv.Itoa(int(l.Arg))
	times := ""
	if l.Size > 1 {
		times = "*" + strconv.FormatUint(uint64(l.Size), 10)
	}
	switch l.From {
	case 0:
		return ""
	case LenFixed:
		return strconv.FormatUint(uint64(l.Size), 10)
	case LenArg:
		return arg + times
	case LenRet:
		if l.Bounded {
			return "ret" + times + "<=" + arg
		}
		return "ret" + times
	case LenArgPtr:
		return "*" + arg
	case LenMinArgRet:
		return "min(" + arg + ",ret)"
	case LenFdSet:
		return "fdset(" + arg + ")"
	case LenIoctl:
		return "ioctl(" + arg + ")"
	case LenFcntl:
		return "fcntl(" + arg + ")"
	case LenPrctl:
		return "prctl(" + arg + ")"
	}
	return l.From.String()
}

// effectNames are the effects in bit order.
var effectNames = []string{
	"CreatesFD", "CreatesFDPair", "ClosesFD", "DupsFD", "UsesFD", "NamesPath",
	"CreatesPath", "RemovesPath", "ChangesCwd", "CreatesProcess", "ExecsImage",
	"EndsThread", "MapsMemory", "ChangesSignals", "WaitsChild", "SignalsProcess",
	"BindsAddress", "ConnectsAddress", "AcceptsConn", "ChangesFDFlags",
	"ReadsEnvironment", "ChangesCreds", "ChangesLimits", "ModifiesFile",
	"ChangesUmask", "ChangesRoot", "ChangesMounts", "ChangesNamespace",
	"ChangesProcess", "ClosesFDRange", "MovesOffset", "ChangesFDState",
	"ActsOnDirectory",
}

// Names returns the names of the effects in e, in bit order; unnamed
// bits as hex.
func (e Effect) Names() []string {
	var out []string
	for i, n := range effectNames {
		if e&(1<<i) != 0 {
			out = append(out, n)
			e &^= 1 << i
		}
	}
	if e != 0 {
		out = append(out, "0x"+strconv.FormatUint(uint64(e), 16))
	}
	return out
}

// String returns the effects joined with "|", "0" for none.
func (e Effect) String() string {
	if e == 0 {
		return "0"
	}
	return strings.Join(e.Names(), "|")
}

// String returns the policy's name.
func (p Policy) String() string {
	switch p {
	case Replayable:
		return "Replayable"
	case AlwaysExecute:
		return "AlwaysExecute"
	}
	return "Policy(" + strconv.Itoa(int(p)) + ")"
}
