package align

// maxKeyIndex bounds the distinct keys a KeyTable finds again: past it,
// a new key is added without being looked up, so that the table's map
// stays small for a trace whose calls name a million different paths.
const maxKeyIndex = 1 << 16

// KeyTable holds keys once each: a trace of a million calls on a few
// files has a few distinct keys, and a list of its keys (Keys) then
// holds a 4-byte index a call instead of a 24-byte Key and a string.
// It is not safe for concurrent use while keys are added; once made,
// the Keys of it may be read by many goroutines.
type KeyTable struct {
	keys  []Key
	index map[Key]uint32
}

// NewKeyTable returns an empty KeyTable.
func NewKeyTable() *KeyTable { return &KeyTable{index: make(map[Key]uint32)} }

// Add returns the index of k in the table, adding it if it is not there
// (or if the table already finds maxKeyIndex keys again).
func (t *KeyTable) Add(k Key) uint32 {
	if id, ok := t.index[k]; ok {
		return id
	}
	id := uint32(len(t.keys))
	t.keys = append(t.keys, k)
	if len(t.index) < maxKeyIndex {
		t.index[k] = id
	}
	return id
}

// Done lets go of the index that finds keys again: the table is only
// read after, and Add may not be called.
func (t *KeyTable) Done() { t.index = nil }

// Len returns the number of keys the table holds.
func (t *KeyTable) Len() int { return len(t.keys) }

// Keys is a list of keys held as indexes into a KeyTable: a thread's
// recorded keys, for a Stream.
type Keys struct {
	tab *KeyTable
	ids []uint32
}

// KeysOf returns the Keys of the table t at indexes ids, which it keeps.
func KeysOf(t *KeyTable, ids []uint32) Keys { return Keys{tab: t, ids: ids} }

// ListOf returns ks as a Keys, each key its own entry of a table.
func ListOf(ks []Key) Keys {
	ids := make([]uint32, len(ks))
	for i := range ids {
		ids[i] = uint32(i)
	}
	return Keys{tab: &KeyTable{keys: ks}, ids: ids}
}

// Len returns the number of keys in the list.
func (k Keys) Len() int { return len(k.ids) }

// At returns the key at position i.
func (k Keys) At(i int) Key { return k.tab.keys[k.ids[i]] }

// From returns the list from position i on.
func (k Keys) From(i int) Keys { return Keys{tab: k.tab, ids: k.ids[i:]} }

// NewKeys returns an empty list of keys of t with room for n.
func (t *KeyTable) NewKeys(n int) Keys { return Keys{tab: t, ids: make([]uint32, 0, n)} }

// Add appends key to the list, adding it to the list's table.
func (k *Keys) Add(key Key) { k.ids = append(k.ids, k.tab.Add(key)) }
