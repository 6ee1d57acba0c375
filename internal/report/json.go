package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
)

// OutputVersion is the version of the JSON output contract (README, "Output"): every document is
// an object whose "version" is this number, keys are snake_case and a list is never null. It
// changes only when a key is renamed or removed; new keys may appear at any time.
const OutputVersion = 1

// JSON writes v as one indented JSON document under the output contract.
func JSON(w io.Writer, v any) error {
	data, err := json.Marshal(withEmptyLists(v))
	if err != nil {
		return err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return fmt.Errorf("output is not a JSON object: %w", err)
	}
	if _, ok := top["version"]; !ok {
		if len(top) == 0 {
			data = fmt.Appendf(nil, `{"version":%d}`, OutputVersion)
		} else {
			data = append(fmt.Appendf(nil, `{"version":%d,`, OutputVersion), data[1:]...)
		}
	}
	var out bytes.Buffer
	if err := json.Indent(&out, data, "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	_, err = w.Write(out.Bytes())
	return err
}

// withEmptyLists returns a copy of v in which every nil slice and map reachable through exported
// fields is empty instead, so encoding/json writes [] and {} where it would write null. Byte
// slices (json.RawMessage among them) are left alone. What v points to is copied before it is
// filled, never written: printing a plan leaves the plan as it was.
func withEmptyLists(v any) any {
	if v == nil {
		return v
	}
	c := reflect.New(reflect.TypeOf(v)).Elem()
	c.Set(reflect.ValueOf(v))
	fillLists(c, 0)
	return c.Interface()
}

func fillLists(v reflect.Value, depth int) {
	if depth > 32 {
		return // cycles do not occur in results; the bound keeps a mistake from hanging
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		if v.Kind() == reflect.Pointer {
			if !v.CanSet() {
				return
			}
			inner := reflect.New(v.Elem().Type())
			inner.Elem().Set(v.Elem())
			fillLists(inner.Elem(), depth+1)
			v.Set(inner)
			return
		}
		inner := reflect.New(v.Elem().Type()).Elem()
		inner.Set(v.Elem())
		fillLists(inner, depth+1)
		if v.CanSet() {
			v.Set(inner)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				fillLists(f, depth+1)
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		if v.IsNil() {
			if v.CanSet() {
				v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			}
			return
		}
		if !v.CanSet() {
			return
		}
		filled := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(filled, v)
		for i := range filled.Len() {
			fillLists(filled.Index(i), depth+1)
		}
		v.Set(filled)
	case reflect.Map:
		if v.IsNil() {
			if v.CanSet() {
				v.Set(reflect.MakeMap(v.Type()))
			}
			return
		}
		// Map values are not addressable: fill a copy of each and put it back.
		filled := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			e := reflect.New(it.Value().Type()).Elem()
			e.Set(it.Value())
			fillLists(e, depth+1)
			filled.SetMapIndex(it.Key(), e)
		}
		if v.CanSet() {
			v.Set(filled)
		}
	}
}
