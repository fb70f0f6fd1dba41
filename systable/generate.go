package systable

// The x86-64 syscall numbers, flag sets and constants are generated from
// the name lists in xlat/ (see doc.go).
//go:generate go run ./internal/xlatgen
