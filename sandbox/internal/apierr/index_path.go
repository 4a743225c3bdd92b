package apierr

import "strconv"

// IndexPath is the error_path of a list entry: name[i].
func IndexPath(name string, i int) string {
	return name + "[" + strconv.Itoa(i) + "]"
}
