package align

import "testing"

// TestKeyTable: equal keys share one entry of the table, a list reads
// back the keys added to it, and From drops the first ones.
func TestKeyTable(t *testing.T) {
	tab := NewKeyTable()
	a, b := tab.NewKeys(3), tab.NewKeys(1)
	in := []Key{{Nr: 2, Res: "/etc/hosts"}, {Nr: 0, Res: "/etc/hosts"}, {Nr: 2, Res: "/etc/hosts"}}
	for _, k := range in {
		a.Add(k)
	}
	b.Add(Key{Nr: 0, Res: "/etc/hosts"})
	tab.Done()
	if tab.Len() != 2 {
		t.Errorf("table holds %d keys, want 2", tab.Len())
	}
	for i, k := range in {
		if a.At(i) != k {
			t.Errorf("key %d is %+v, want %+v", i, a.At(i), k)
		}
	}
	if b.Len() != 1 || b.At(0) != in[1] || a.From(1).Len() != 2 || a.From(1).At(0) != in[1] {
		t.Errorf("lists read back wrong: %+v %+v", b, a.From(1))
	}
}
