package fax

// The area codes the sandbox offers fax lines in: real area codes of the
// three countries the official description names (US states, Canadian
// provinces, UK dialling codes without the leading 0), and the codes of a
// few large cities. The lists are fixed data, so that GET
// /fax_line/area_codes is deterministic; they are a plausible subset of what
// the real service offers, not its inventory.

import (
	"slices"
	"strings"
)

// faxCountries are the countries of FaxLineAreaCodeGetCountryEnum.
var faxCountries = []string{"CA", "US", "UK"}

// usAreaCodes maps FaxLineAreaCodeGetStateEnum values to area codes.
var usAreaCodes = map[string][]int{
	"AK": {907}, "AL": {205, 251, 256, 334}, "AR": {479, 501, 870}, "AZ": {480, 520, 602, 623, 928},
	"CA": {209, 213, 310, 323, 408, 415, 424, 510, 530, 559, 562, 619, 626, 650, 657, 661, 669, 707, 714, 747, 760, 805, 818, 831, 858, 909, 916, 925, 949, 951},
	"CO": {303, 719, 720, 970}, "CT": {203, 475, 860}, "DC": {202}, "DE": {302},
	"FL": {305, 321, 352, 386, 407, 561, 727, 754, 772, 786, 813, 850, 863, 904, 941, 954},
	"GA": {229, 404, 470, 478, 678, 706, 762, 770, 912}, "HI": {808}, "IA": {319, 515, 563, 641, 712}, "ID": {208},
	"IL": {217, 224, 309, 312, 618, 630, 708, 773, 815, 847, 872}, "IN": {219, 260, 317, 574, 765, 812},
	"KS": {316, 620, 785, 913}, "KY": {270, 502, 606, 859}, "LA": {225, 318, 337, 504, 985},
	"MA": {339, 351, 413, 508, 617, 774, 781, 857, 978}, "MD": {240, 301, 410, 443}, "ME": {207},
	"MI": {231, 248, 269, 313, 517, 586, 616, 734, 810, 906, 947, 989}, "MN": {218, 320, 507, 612, 651, 763, 952},
	"MO": {314, 417, 573, 636, 660, 816}, "MS": {228, 601, 662, 769}, "MT": {406},
	"NC": {252, 336, 704, 828, 910, 919, 980, 984}, "ND": {701}, "NE": {308, 402, 531}, "NH": {603},
	"NJ": {201, 551, 609, 732, 848, 856, 862, 908, 973}, "NM": {505, 575}, "NV": {702, 725, 775},
	"NY": {212, 315, 347, 516, 518, 585, 607, 631, 646, 716, 718, 845, 914, 917, 929},
	"OH": {216, 234, 330, 419, 440, 513, 567, 614, 740, 937}, "OK": {405, 539, 580, 918}, "OR": {458, 503, 541, 971},
	"PA": {215, 267, 412, 484, 570, 610, 717, 724, 814, 878}, "RI": {401}, "SC": {803, 843, 864}, "SD": {605},
	"TN": {423, 615, 629, 731, 865, 901, 931},
	"TX": {210, 214, 254, 281, 325, 346, 361, 409, 430, 432, 469, 512, 682, 713, 726, 737, 806, 817, 830, 832, 903, 915, 936, 940, 956, 972, 979},
	"UT": {385, 435, 801}, "VA": {276, 434, 540, 571, 703, 757, 804}, "VT": {802}, "WA": {206, 253, 360, 425, 509},
	"WI": {262, 414, 608, 715, 920}, "WV": {304, 681}, "WY": {307},
}

// caAreaCodes maps FaxLineAreaCodeGetProvinceEnum values to area codes.
var caAreaCodes = map[string][]int{
	"AB": {403, 587, 780, 825}, "BC": {236, 250, 604, 672, 778}, "MB": {204, 431}, "NB": {506}, "NL": {709},
	"NT": {867}, "NS": {782, 902}, "NU": {867}, "ON": {226, 249, 289, 343, 365, 416, 437, 519, 548, 613, 647, 705, 807, 905},
	"PE": {782, 902}, "QC": {367, 418, 438, 450, 514, 579, 581, 819, 873}, "SK": {306, 639}, "YT": {867},
}

// ukAreaCodes are UK geographic dialling codes without the trunk 0.
var ukAreaCodes = []int{20, 23, 24, 28, 29, 113, 114, 115, 116, 117, 118, 121, 131, 141, 151, 161, 191, 1223, 1865}

// faxCity is a city whose area codes the sandbox knows; region is the state
// or province ("" in the UK).
type faxCity struct {
	country, region, name string
	codes                 []int
}

var faxCities = []faxCity{
	{"US", "CA", "San Francisco", []int{415}},
	{"US", "CA", "Los Angeles", []int{213, 310, 323, 424, 747, 818}},
	{"US", "CA", "San Diego", []int{619, 858}},
	{"US", "CA", "San Jose", []int{408, 669}},
	{"US", "CA", "Sacramento", []int{916}},
	{"US", "CA", "Oakland", []int{510}},
	{"US", "NY", "New York", []int{212, 347, 646, 718, 917, 929}},
	{"US", "IL", "Chicago", []int{312, 773, 872}},
	{"US", "TX", "Houston", []int{281, 346, 713, 832}},
	{"US", "TX", "Dallas", []int{214, 469, 972}},
	{"US", "TX", "Austin", []int{512, 737}},
	{"US", "WA", "Seattle", []int{206}},
	{"US", "MA", "Boston", []int{617, 857}},
	{"US", "FL", "Miami", []int{305, 786}},
	{"US", "GA", "Atlanta", []int{404, 470, 678, 770}},
	{"US", "CO", "Denver", []int{303, 720}},
	{"US", "AZ", "Phoenix", []int{480, 602, 623}},
	{"US", "PA", "Philadelphia", []int{215, 267}},
	{"US", "DC", "Washington", []int{202}},
	{"US", "OR", "Portland", []int{503, 971}},
	{"CA", "ON", "Toronto", []int{416, 437, 647}},
	{"CA", "ON", "Ottawa", []int{343, 613}},
	{"CA", "BC", "Vancouver", []int{604, 672, 778}},
	{"CA", "QC", "Montreal", []int{438, 514}},
	{"CA", "AB", "Calgary", []int{403, 587, 825}},
	{"CA", "AB", "Edmonton", []int{587, 780, 825}},
	{"UK", "", "London", []int{20}},
	{"UK", "", "Manchester", []int{161}},
	{"UK", "", "Birmingham", []int{121}},
	{"UK", "", "Edinburgh", []int{131}},
	{"UK", "", "Glasgow", []int{141}},
	{"UK", "", "Liverpool", []int{151}},
	{"UK", "", "Leeds", []int{113}},
	{"UK", "", "Bristol", []int{117}},
	{"UK", "", "Cardiff", []int{29}},
	{"UK", "", "Belfast", []int{28}},
	{"UK", "", "Cambridge", []int{1223}},
	{"UK", "", "Oxford", []int{1865}},
}

// regionCodes lists the codes of a country, or of one of its regions.
func regionCodes(country, region string) []int {
	var out []int
	switch country {
	case "US", "CA":
		m := usAreaCodes
		if country == "CA" {
			m = caAreaCodes
		}
		for r, codes := range m {
			if region == "" || r == region {
				out = append(out, codes...)
			}
		}
	case "UK":
		out = append(out, ukAreaCodes...)
	}
	return sortedUniqueInts(out)
}

// cityCodes lists the codes of a known city (case-insensitive), optionally
// only in region; nil when the sandbox does not know the city.
func cityCodes(country, region, city string) []int {
	var out []int
	for _, fc := range faxCities {
		if fc.country == country && (region == "" || fc.region == region) && strings.EqualFold(fc.name, strings.TrimSpace(city)) {
			out = append(out, fc.codes...)
		}
	}
	return sortedUniqueInts(out)
}

// areaCodes is the answer of GET /fax_line/area_codes.
func areaCodes(country, region, city string) []int {
	if city != "" {
		return cityCodes(country, region, city)
	}
	return regionCodes(country, region)
}

// sortedUniqueInts is a sorted copy of in without repeats (never nil: the
// answer's area_codes is a list).
func sortedUniqueInts(in []int) []int {
	out := append([]int{}, in...)
	slices.Sort(out)
	return slices.Compact(out)
}
