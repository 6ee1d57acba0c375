package transcript

import (
	"strings"

	"github.com/tidwall/gjson"
)

// A skimmer finds the members of a JSON object and the elements of an array without decoding
// them. Strings hold nearly all the bytes of a transcript (tool output, file contents, thinking)
// and are skipped with strings.IndexByte, which is vectorised, so judging a record costs little
// more than finding its line; only the small members a record is judged by are then decoded,
// with gjson. The skimmer checks structure, not every token: kept records are validated in full
// before anything of them is used.

// stopScan, returned by a members or elements callback, ends the scan early.
const stopScan = -2

// members scans the object that starts at s[i]. For each member it calls fn with the raw key
// (undecoded, without quotes) and the index where the value starts; fn returns the index just
// past the value: skipValue(s, v) when it does not look inside, or the end of its own scan of
// it, so a value is scanned once however deep the reader looks. members returns the index just
// past the object, -1 when it is malformed, or stopScan when fn stopped it.
func members(s string, i int, fn func(key string, v int) int) int {
	if i >= len(s) || s[i] != '{' {
		return -1
	}
	if i = skipSpace(s, i+1); i < len(s) && s[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(s) || s[i] != '"' {
			return -1
		}
		end := skipString(s, i)
		if end < 0 {
			return -1
		}
		key := s[i+1 : end-1]
		if i = skipSpace(s, end); i >= len(s) || s[i] != ':' {
			return -1
		}
		if i = skipSpace(s, i+1); i >= len(s) {
			return -1
		}
		if i = fn(key, i); i < 0 {
			return i
		}
		if i = skipSpace(s, i); i >= len(s) {
			return -1
		}
		switch s[i] {
		case ',':
			i = skipSpace(s, i+1)
		case '}':
			return i + 1
		default:
			return -1
		}
	}
}

// elements scans the array that starts at s[i], calling fn with the index where each element
// starts; like members, fn returns the index just past it.
func elements(s string, i int, fn func(v int) int) int {
	if i >= len(s) || s[i] != '[' {
		return -1
	}
	if i = skipSpace(s, i+1); i < len(s) && s[i] == ']' {
		return i + 1
	}
	for {
		if i >= len(s) {
			return -1
		}
		if i = fn(i); i < 0 {
			return i
		}
		if i = skipSpace(s, i); i >= len(s) {
			return -1
		}
		switch s[i] {
		case ',':
			i = skipSpace(s, i+1)
		case ']':
			return i + 1
		default:
			return -1
		}
	}
}

// eachMember calls fn with the raw key and raw value of each member of the JSON object obj, in
// order, until fn returns false. It reports whether obj was well-formed as far as it was scanned.
func eachMember(obj string, fn func(key, value string) bool) bool {
	end := members(obj, skipSpace(obj, 0), func(key string, v int) int {
		end := skipValue(obj, v)
		if end >= 0 && !fn(key, obj[v:end]) {
			return stopScan
		}
		return end
	})
	return end != -1
}

// eachElement calls fn with each raw element of the JSON array arr, until fn returns false. It
// reports whether arr was well-formed as far as it was scanned.
func eachElement(arr string, fn func(value string) bool) bool {
	end := elements(arr, skipSpace(arr, 0), func(v int) int {
		end := skipValue(arr, v)
		if end >= 0 && !fn(arr[v:end]) {
			return stopScan
		}
		return end
	})
	return end != -1
}

// member returns the raw value of the first member named key of the object obj, "" if none.
func member(obj, key string) string {
	var found string
	eachMember(obj, func(k, v string) bool {
		if k == key {
			found = v
			return false
		}
		return true
	})
	return found
}

// jsonString decodes a raw JSON string; anything else decodes to "". Without escapes the result
// shares memory with raw.
func jsonString(raw string) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	if strings.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1]
	}
	return gjson.Parse(raw).Str
}

// jsonPrefix decodes about the first n bytes of a raw JSON string, so a multi-megabyte tool
// output costs no more to read than the part of it that is kept.
func jsonPrefix(raw string, n int) string {
	if len(raw) <= n+2 {
		return jsonString(raw)
	}
	if n <= 0 || raw[0] != '"' {
		return ""
	}
	cut := raw[:n+1]
	// Do not end inside an escape: drop a trailing "\", "\u12"…, keeping escaped backslashes whole.
	tail := max(1, len(cut)-6)
	if i := strings.LastIndexByte(cut[tail:], '\\'); i >= 0 {
		cut = cut[:tail+i]
	}
	if run := len(cut) - len(strings.TrimRight(cut, `\`)); run%2 == 1 {
		cut = cut[:len(cut)-1]
	}
	return jsonString(cut + `"`)
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string whose opening quote is s[i], or -1.
func skipString(s string, i int) int {
	for j := i + 1; ; j++ {
		k := strings.IndexByte(s[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		escapes := 0
		for b := j - 1; b > i && s[b] == '\\'; b-- {
			escapes++
		}
		if escapes%2 == 0 {
			return j + 1
		}
	}
}

// skipValue returns the index just past the JSON value that starts at s[i], or -1 when there is
// none or it is cut short.
func skipValue(s string, i int) int {
	if i >= len(s) {
		return -1
	}
	switch s[i] {
	case '"':
		return skipString(s, i)
	case '{', '[':
		depth := 0
		for i < len(s) {
			switch s[i] {
			case '"':
				if i = skipString(s, i); i < 0 {
					return -1
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	case ',', ':', '}', ']':
		return -1
	}
	j := i // a number, true, false or null
	for j < len(s) && !strings.ContainsRune(",:{}[]\" \t\r\n", rune(s[j])) {
		j++
	}
	return j
}
