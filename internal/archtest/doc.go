// Package archtest holds tests of rules that span the repository rather
// than one package. Its test walks every non-test Go file outside
// systable/ with go/ast and fails when a syscall's, argument's, flag's or
// struct's name is compared to a string literal: a per-syscall fact
// belongs in the syscall table as a column, and a new `if row.Name ==
// "..."` elsewhere is a missing one.
//
// The check is syntactic (no type information): it flags comparisons
// (==, !=, switch cases) of a string literal other than "" with a Name or
// Struct field, or with the result of EnumName; strings.Contains,
// HasPrefix, HasSuffix and EqualFold on such a field with a literal; and
// a flag looked up by its name (FlagSet.Has(v, "O_CREAT")).
// Name fields of types that are not the table's are listed as exceptions
// in the test, each with its reason.
package archtest
