package param

import "strings"

// commonEmail reports, without a regular expression or net/mail (both
// allocate, and every signer and cc of a send is checked), whether v has
// the shape almost every address has: a local part of letters, digits,
// '.', '_', '+' and '-' that neither starts nor ends with a dot nor holds
// two in a row, one '@', and a domain of two or more labels of letters,
// digits and inner hyphens. Every such address matches emailPattern and
// reads back from net/mail unchanged, so it is valid; for any other v the
// answer is false and ValidEmail asks them (FuzzCommonEmail checks this).
func commonEmail(v string) bool {
	local, domain, ok := strings.Cut(v, "@")
	if !ok || local == "" || local[0] == '.' || local[len(local)-1] == '.' || strings.Contains(local, "..") {
		return false
	}
	for i := 0; i < len(local); i++ {
		if c := local[i]; !isAlnum(c) && c != '.' && c != '_' && c != '+' && c != '-' {
			return false
		}
	}
	labels := 0
	for domain != "" {
		label, rest, _ := strings.Cut(domain, ".")
		if label == "" || !isAlnum(label[0]) || !isAlnum(label[len(label)-1]) {
			return false
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !isAlnum(c) && c != '-' {
				return false
			}
		}
		labels++
		if rest == "" && len(domain) > len(label) {
			return false // a trailing dot
		}
		domain = rest
	}
	return labels >= 2
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
