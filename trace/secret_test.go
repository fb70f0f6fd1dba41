package trace

import "testing"

func TestSecretHashMatchesOnlyTheSameValueNameAndSalt(t *testing.T) {
	salt, err := NewSalt()
	if err != nil {
		t.Fatal(err)
	}
	h, err := SecretHash(salt, "GITHUB_TOKEN", "ghp_x")
	if err != nil {
		t.Fatal(err)
	}
	other, _ := NewSalt()
	for _, c := range []struct {
		salt        []byte
		name, value string
		want        bool
	}{
		{salt, "GITHUB_TOKEN", "ghp_x", true},
		{salt, "GITHUB_TOKEN", "ghp_y", false},
		{salt, "GH_TOKEN", "ghp_x", false},
		{other, "GITHUB_TOKEN", "ghp_x", false},
	} {
		got, err := SecretMatches(c.salt, c.name, c.value, h)
		if err != nil || got != c.want {
			t.Errorf("SecretMatches(%s=%s) = %v, %v; want %v", c.name, c.value, got, err, c.want)
		}
	}
	if _, err := SecretMatches(salt, "X", "y", "md5:abc"); err == nil {
		t.Error("an unknown hash was accepted")
	}
}

// BenchmarkSecretHash is the cost of one redacted value at record time,
// of one comparison at locate time, and of one guess.
func BenchmarkSecretHash(b *testing.B) {
	salt := make([]byte, SaltSize)
	for b.Loop() {
		if _, err := SecretHash(salt, "GITHUB_TOKEN", "ghp_x"); err != nil {
			b.Fatal(err)
		}
	}
}
