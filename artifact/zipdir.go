package artifact

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
)

// findDirectory locates the central directory from the end-of-central-
// directory record, following the zip64 locator when the classic record
// says its fields overflowed.
func findDirectory(ctx context.Context, src source) (off, size, count int64, err error) {
	n := min(src.size(), tailLen)
	tail := make([]byte, n)
	base := src.size() - n
	if err := src.readAt(ctx, tail, base); err != nil {
		return 0, 0, 0, fmt.Errorf("read end of zip: %w", err)
	}
	i := findEnd(tail)
	if i < 0 {
		return 0, 0, 0, errors.New("not a zip: no end-of-central-directory record")
	}
	end := tail[i:]
	count = int64(binary.LittleEndian.Uint16(end[10:]))
	size = int64(binary.LittleEndian.Uint32(end[12:]))
	off = int64(binary.LittleEndian.Uint32(end[16:]))
	endAt := base + int64(i)
	if count == 0xffff || size == 0xffffffff || off == 0xffffffff {
		if off, size, count, endAt, err = readEnd64(ctx, src, endAt); err != nil {
			return 0, 0, 0, err
		}
	}
	if size > maxCentralDir || off < 0 || size < 0 || off+size > endAt {
		return 0, 0, 0, fmt.Errorf("corrupt zip: central directory of %d bytes at %d does not fit before %d", size, off, endAt)
	}
	return off, size, count, nil
}

// findEnd is the index of the last end record whose comment fits the tail.
func findEnd(tail []byte) int {
	for i := len(tail) - endLen; i >= 0; i-- {
		if binary.LittleEndian.Uint32(tail[i:]) != sigEnd {
			continue
		}
		if comment := int(binary.LittleEndian.Uint16(tail[i+20:])); i+endLen+comment <= len(tail) {
			return i
		}
	}
	return -1
}

func readEnd64(ctx context.Context, src source, endAt int64) (off, size, count, end64At int64, err error) {
	if endAt < locator64Len {
		return 0, 0, 0, 0, errors.New("corrupt zip: zip64 fields without a zip64 locator")
	}
	loc := make([]byte, locator64Len)
	if err := src.readAt(ctx, loc, endAt-locator64Len); err != nil {
		return 0, 0, 0, 0, fmt.Errorf("read zip64 locator: %w", err)
	}
	if binary.LittleEndian.Uint32(loc) != sigLocator64 {
		return 0, 0, 0, 0, errors.New("corrupt zip: zip64 fields without a zip64 locator")
	}
	end64At = int64(binary.LittleEndian.Uint64(loc[8:]))
	if end64At < 0 || end64At > endAt-locator64Len-end64Len {
		return 0, 0, 0, 0, fmt.Errorf("corrupt zip: zip64 end record offset %d out of range", end64At)
	}
	rec := make([]byte, end64Len)
	if err := src.readAt(ctx, rec, end64At); err != nil {
		return 0, 0, 0, 0, fmt.Errorf("read zip64 end record: %w", err)
	}
	if binary.LittleEndian.Uint32(rec) != sigEnd64 {
		return 0, 0, 0, 0, errors.New("corrupt zip: bad zip64 end record signature")
	}
	count = int64(binary.LittleEndian.Uint64(rec[32:]))
	size = int64(binary.LittleEndian.Uint64(rec[40:]))
	off = int64(binary.LittleEndian.Uint64(rec[48:]))
	return off, size, count, end64At, nil
}

func (r *Reader) parseDirectory(cd []byte, count int64) error {
	for p := 0; p < len(cd); {
		e, n, err := parseCentral(cd[p:])
		if err != nil {
			return fmt.Errorf("corrupt zip: central directory entry %d: %w", len(r.order), err)
		}
		if e.header < 0 || e.header >= r.cdStart {
			return fmt.Errorf("corrupt zip: entry %q has its header at %d, outside the data", e.Name, e.header)
		}
		if _, dup := r.entries[e.Name]; dup {
			return fmt.Errorf("corrupt zip: entry %q appears twice", e.Name)
		}
		r.entries[e.Name] = e
		r.order = append(r.order, e)
		p += n
	}
	if int64(len(r.order)) != count {
		return fmt.Errorf("corrupt zip: %d central directory entries, end record says %d", len(r.order), count)
	}
	return nil
}

// parseCentral decodes one central directory header and its length.
func parseCentral(b []byte) (*centralEntry, int, error) {
	if len(b) < centralLen || binary.LittleEndian.Uint32(b) != sigCentral {
		return nil, 0, errors.New("bad signature")
	}
	le := binary.LittleEndian
	nameLen, extraLen, commentLen := int(le.Uint16(b[28:])), int(le.Uint16(b[30:])), int(le.Uint16(b[32:]))
	total := centralLen + nameLen + extraLen + commentLen
	if len(b) < total {
		return nil, 0, errors.New("truncated")
	}
	e := &centralEntry{method: le.Uint16(b[10:]), crc: le.Uint32(b[16:])}
	e.Name = string(b[centralLen : centralLen+nameLen])
	e.StoredSize, e.Size, e.header = int64(le.Uint32(b[20:])), int64(le.Uint32(b[24:])), int64(le.Uint32(b[42:]))
	if err := applyZip64(e, b[centralLen+nameLen:centralLen+nameLen+extraLen]); err != nil {
		return nil, 0, err
	}
	if e.Size < 0 || e.StoredSize < 0 {
		return nil, 0, errors.New("size out of range")
	}
	e.Method = methodName(e.method)
	return e, total, nil
}

// applyZip64 replaces saturated 32-bit fields with the zip64 extra's values,
// which appear in a fixed order and only for the fields that saturated.
func applyZip64(e *centralEntry, extra []byte) error {
	for len(extra) >= 4 {
		tag, n := binary.LittleEndian.Uint16(extra), int(binary.LittleEndian.Uint16(extra[2:]))
		if 4+n > len(extra) {
			return errors.New("truncated extra field")
		}
		if tag == zip64ExtraID {
			field := extra[4 : 4+n]
			for _, v := range []*int64{&e.Size, &e.StoredSize, &e.header} {
				if *v != 0xffffffff {
					continue
				}
				if len(field) < 8 {
					return errors.New("short zip64 extra field")
				}
				*v = int64(binary.LittleEndian.Uint64(field))
				field = field[8:]
			}
		}
		extra = extra[4+n:]
	}
	return nil
}

func methodName(m uint16) string {
	switch m {
	case methodStoreID:
		return methodStore
	case methodDeflated:
		return methodDeflate
	}
	return fmt.Sprintf("method %d", m)
}
