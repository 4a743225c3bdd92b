package sandbox

import "strconv"

// indexPath is the error_path of a list entry: name[i].
func indexPath(name string, i int) string {
	return name + "[" + strconv.Itoa(i) + "]"
}
