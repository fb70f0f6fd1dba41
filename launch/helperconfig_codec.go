package launch

import (
	"fmt"

	"github.com/fxamacker/cbor/v2"
)

// The helper's configuration crosses a pipe from envbisect to the
// re-executed helper. It holds the command's path, arguments and
// environment, which on Linux are any bytes but NUL: JSON, whose strings
// are UTF-8, would replace a byte such as Latin-1 "é" (0xe9) with U+FFFD
// and the command would run with another argument. CBOR with every Go
// string written as a byte string carries them exactly.

// helperConfigCodec encodes and decodes a helperConfig byte for byte.
type helperConfigCodec struct {
	enc cbor.EncMode
	dec cbor.DecMode
}

func newHelperConfigCodec() (helperConfigCodec, error) {
	enc, err := cbor.EncOptions{String: cbor.StringToByteString}.EncMode()
	if err != nil {
		return helperConfigCodec{}, fmt.Errorf("helper configuration encoder: %w", err)
	}
	dec, err := cbor.DecOptions{ByteStringToString: cbor.ByteStringToStringAllowed}.DecMode()
	if err != nil {
		return helperConfigCodec{}, fmt.Errorf("helper configuration decoder: %w", err)
	}
	return helperConfigCodec{enc: enc, dec: dec}, nil
}

func encodeHelperConfig(hc helperConfig) ([]byte, error) {
	c, err := newHelperConfigCodec()
	if err != nil {
		return nil, err
	}
	return c.enc.Marshal(hc)
}

func decodeHelperConfig(b []byte, hc *helperConfig) error {
	c, err := newHelperConfigCodec()
	if err != nil {
		return err
	}
	return c.dec.Unmarshal(b, hc)
}
