package artifact

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
)

// HashBlockSize is the piece of an entry's uncompressed bytes each hash in
// Entry.Blocks covers. A verified read of any range moves the whole blocks
// that hold it: small enough that a cited excerpt costs a few hundred KiB,
// large enough that a 4 GiB log's list is 16,384 hashes (1 MiB of
// manifest).
const HashBlockSize = 256 << 10

// blockHasher hashes what is written to it in HashBlockSize pieces.
type blockHasher struct {
	h      hash.Hash
	n      int64 // bytes in the current block
	blocks []string
}

func newBlockHasher() *blockHasher { return &blockHasher{h: sha256.New()} }

func (b *blockHasher) Write(p []byte) (int, error) {
	total := len(p)
	for len(p) > 0 {
		k := min(int64(len(p)), HashBlockSize-b.n)
		b.h.Write(p[:k])
		b.n += k
		p = p[k:]
		if b.n == HashBlockSize {
			b.flush()
		}
	}
	return total, nil
}

func (b *blockHasher) flush() {
	b.blocks = append(b.blocks, hex.EncodeToString(b.h.Sum(nil)))
	b.h.Reset()
	b.n = 0
}

// done returns the block hashes, the last block shorter if the bytes end
// inside one; an empty entry has no blocks.
func (b *blockHasher) done() []string {
	if b.n > 0 {
		b.flush()
	}
	return b.blocks
}

// HashBlocks returns the hashes of r's HashBlockSize pieces and the sha256 of
// that list (BlocksSum), as the uploader writes them into the manifest.
func HashBlocks(r io.Reader) (blocks []string, sum string, err error) {
	b := newBlockHasher()
	if _, err := io.Copy(b, r); err != nil {
		return nil, "", fmt.Errorf("hash blocks: %w", err)
	}
	blocks = b.done()
	return blocks, BlocksSum(blocks), nil
}

// BlocksSum is the sha256 of a block list: each hex hash followed by a
// newline. One value pins every block, so a report that carries it ties
// the manifest to the run.
func BlocksSum(blocks []string) string {
	h := sha256.New()
	for _, b := range blocks {
		io.WriteString(h, b)
		io.WriteString(h, "\n")
	}
	return hex.EncodeToString(h.Sum(nil))
}

// checkBlocks verifies data, the bytes [start, start+len(data)) of an
// entry where start is a multiple of its block size and data ends at a block
// boundary or at the entry's end, against the entry's block hashes.
func checkBlocks(e Entry, start int64, data []byte) error {
	bs := e.BlockSize
	if bs <= 0 || start%bs != 0 {
		return fmt.Errorf("%s: bytes from %d are not whole %d-byte blocks", e.Name, start, bs)
	}
	for off := int64(0); off < int64(len(data)); off += bs {
		i := (start + off) / bs
		piece := data[off:min(off+bs, int64(len(data)))]
		if i >= int64(len(e.Blocks)) {
			return fmt.Errorf("%s: block %d (bytes %d-%d) is beyond the manifest's %d blocks: %w",
				e.Name, i, start+off, start+off+int64(len(piece)), len(e.Blocks), ErrHashMismatch)
		}
		sum := sha256.Sum256(piece)
		if hex.EncodeToString(sum[:]) != e.Blocks[i] {
			return fmt.Errorf("%s: block %d (bytes %d-%d) does not match the manifest's hash: %w",
				e.Name, i, start+off, start+off+int64(len(piece)), ErrHashMismatch)
		}
	}
	return nil
}
