package outbound

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestClassify(t *testing.T) {
	for addr, want := range map[string]Class{
		"8.8.8.8":                              Public,
		"1.1.1.1":                              Public,
		"2606:4700::1111":                      Public,
		"127.0.0.1":                            Loopback,
		"127.255.0.9":                          Loopback,
		"::1":                                  Loopback,
		"10.1.2.3":                             Private,
		"172.16.0.1":                           Private,
		"172.31.255.255":                       Private,
		"172.32.0.1":                           Public,
		"192.168.1.1":                          Private,
		"fd12:3456::1":                         Private,
		"fc00::1":                              Private,
		"fec0::1":                              Private,
		"100.64.0.1":                           SharedCGNAT,
		"100.100.100.200":                      SharedCGNAT, // Alibaba Cloud's metadata service
		"100.128.0.1":                          Public,
		"169.254.169.254":                      LinkLocal,
		"169.254.0.1":                          LinkLocal,
		"fe80::1":                              LinkLocal,
		"fe80::1%eth0":                         LinkLocal,
		"fd00:ec2::254":                        Metadata,
		"fd00:ec2::253":                        Private,
		"0.0.0.0":                              Unspecified,
		"0.1.2.3":                              Unspecified,
		"::":                                   Unspecified,
		"224.0.0.1":                            Multicast,
		"239.255.255.250":                      Multicast,
		"ff02::1":                              Multicast,
		"255.255.255.255":                      Broadcast,
		"240.0.0.1":                            Reserved,
		"192.0.0.170":                          Private,
		"198.18.0.1":                           Private,
		"192.0.2.1":                            Private,
		"2001:db8::1":                          Private,
		"::ffff:127.0.0.1":                     Loopback,
		"::ffff:169.254.169.254":               LinkLocal,
		"::ffff:10.0.0.1":                      Private,
		"::ffff:8.8.8.8":                       Public,
		"::169.254.169.254":                    Reserved, // IPv4-compatible
		"::8.8.8.8":                            Reserved,
		"64:ff9b::a9fe:a9fe":                   LinkLocal, // NAT64 of 169.254.169.254
		"64:ff9b::7f00:1":                      Loopback,
		"64:ff9b::808:808":                     Public, // NAT64 of 8.8.8.8: IPv6-only networks reach the internet so
		"64:ff9b:1::a00:1":                     Private,
		"2002:a9fe:a9fe::1":                    LinkLocal, // 6to4 behind 169.254.169.254
		"2002:7f00:1::1":                       Loopback,
		"2002:808:808::1":                      Public,
		"2001:0:4136:e378:8000:63bf:3fff:fdd2": Private,   // Teredo, RFC 4380's example: client 192.0.2.45
		"2001:0:4136:e378:8000:63bf:f7f7:f7f7": Public,    // Teredo client 8.8.8.8
		"2001:0:4136:e378:8000:63bf:80ff:fffe": Loopback,  // Teredo client 127.0.0.1 (inverted)
		"2001:0:a9fe:a9fe::1":                  LinkLocal, // Teredo server 169.254.169.254
	} {
		a := netip.MustParseAddr(addr)
		assert.Equal(t, want, Classify(a), addr)
	}
}

func TestNeverClasses(t *testing.T) {
	for c := Public; c <= Reserved; c++ {
		switch c {
		case Public, Loopback, Private, SharedCGNAT:
			assert.False(t, c.Never(), c.String())
		default:
			assert.True(t, c.Never(), c.String())
		}
		assert.NotEmpty(t, c.String())
	}
}
