package trace

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"

	"golang.org/x/crypto/scrypt"
)

// The hash of a redacted value: scrypt with a cost that makes guessing
// slow (about 75 ms and 16 MiB per guess on the project's VM) and the trace's own salt, so
// that two traces' hashes of one value differ and no table of guesses
// serves more than one trace. The parameters are part of the string, so
// a later version may raise them and still read older traces.
const (
	secretN      = 1 << 14
	secretR      = 8
	secretP      = 1
	secretKeyLen = 32
	// SaltSize is the size of Header.Salt.
	SaltSize = 16
)

// NewSalt returns a random salt for a trace's header.
func NewSalt() ([]byte, error) {
	s := make([]byte, SaltSize)
	if _, err := rand.Read(s); err != nil {
		return nil, fmt.Errorf("salt for redacted values: %w", err)
	}
	return s, nil
}

// SecretHash returns the hash StartEvent.Redacted holds for variable
// name set to value: "scrypt:N=16384,r=8,p=1:" and the base64 of scrypt
// over "name=value" with salt.
func SecretHash(salt []byte, name, value string) (string, error) {
	k, err := scrypt.Key([]byte(name+"="+value), salt, secretN, secretR, secretP, secretKeyLen)
	if err != nil {
		return "", fmt.Errorf("hash the value of %s: %w", name, err)
	}
	return fmt.Sprintf("scrypt:N=%d,r=%d,p=%d:%s", secretN, secretR, secretP, base64.RawStdEncoding.EncodeToString(k)), nil
}

// RedactedMarker is what the trace holds in place of a redacted value
// where a value must stand (an exec's environment block).
const RedactedMarker = "<redacted>"

// SecretMatches reports whether hash (a StartEvent.Redacted) is the hash
// of name set to value under salt, with the parameters hash names.
func SecretMatches(salt []byte, name, value, hash string) (bool, error) {
	var n, r, p int
	var enc string
	if _, err := fmt.Sscanf(hash, "scrypt:N=%d,r=%d,p=%d:%s", &n, &r, &p, &enc); err != nil {
		return false, fmt.Errorf("redacted value of %s: unknown hash %q", name, hash)
	}
	want, err := base64.RawStdEncoding.DecodeString(enc)
	if err != nil || len(want) == 0 || len(want) > 64 || n > 1<<20 || r > 32 || p > 4 {
		return false, fmt.Errorf("redacted value of %s: bad hash %q", name, hash)
	}
	k, err := scrypt.Key([]byte(name+"="+value), salt, n, r, p, len(want))
	if err != nil {
		return false, fmt.Errorf("hash the value of %s here: %w", name, err)
	}
	return subtle.ConstantTimeCompare(k, want) == 1, nil
}
