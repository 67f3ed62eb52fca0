#!/usr/bin/perl
# Write a Fossilize database (.foz) for the tests: the StreamArchive format of
# Fossilize's fossilize_db.cpp (version 6) and the JSON of its fossilize.cpp,
# from a description of the entries, so no captured database is ever needed.
#
#	perl tests/foz-write.pl [--deflate] [--crc] [--base64] OUT.foz SPEC
#
# SPEC has one entry a line ('#' starts a comment):
#
#	module HASH FILE                      a shader module: a SPIR-V binary
#	                                      (.spv), or GLSL that glslangValidator
#	                                      compiles (relative to SPEC's folder)
#	graphics HASH STAGE=MODULE[:ENTRY] …  a graphics pipeline, its stages
#	compute HASH MODULE[:ENTRY]           a compute pipeline
#	library HASH LIB …                    a graphics pipeline linking libraries
#	spec STAGE ID=VALUE …                 the previous pipeline's constants
#	                                      (32-bit integers) for STAGE
#	raw TAG HASH TEXT                     an entry holding TEXT as it is
#
# STAGE is vertex, tess_ctrl, tess_eval, geometry, fragment or compute; HASHes
# are up to 16 hex digits.  --deflate compresses every payload (format 2),
# --crc stores their CRC32, --base64 writes module code as base64 ("code")
# rather than varints.
use strict;
use warnings;
use Compress::Zlib qw(compress crc32);
use JSON::PP;
use File::Basename qw(dirname);
use File::Temp qw(tempdir);
use MIME::Base64 qw(encode_base64);

my %opt;
while (@ARGV && $ARGV[0] =~ /^--(deflate|crc|base64)$/) {
	$opt{$1} = 1;
	shift;
}
die "usage: foz-write.pl [--deflate] [--crc] [--base64] OUT.foz SPEC\n" unless @ARGV == 2;
my ($out, $spec) = @ARGV;

my %stage_bit = (vertex => 1, tess_ctrl => 2, tess_eval => 4, geometry => 8,
		 fragment => 16, compute => 32);
my $json = JSON::PP->new->canonical;

sub hash16 { return sprintf("%016s", lc $_[0]) =~ tr/ /0/r }

# Fossilize's varint.cpp: each word as LEB128.
sub varint {
	my $bytes = '';
	for my $w (@_) {
		do {
			my $b = $w & 0x7f;
			$w >>= 7;
			$bytes .= chr($w ? $b | 0x80 : $b);
		} while ($w);
	}
	return $bytes;
}

my $tmp;
sub module_payload {
	my ($hash, $file) = @_;
	$file = dirname($spec) . "/$file" unless $file =~ m{^/} || -e $file;
	if ($file !~ /\.spv$/) {
		$tmp //= tempdir(CLEANUP => 1);
		open(my $gv, '-|', 'glslangValidator', '-V', '-o', "$tmp/m.spv", $file)
			or die "foz-write.pl: glslangValidator: $!\n";
		my @log = <$gv>;
		close $gv or die "foz-write.pl: glslangValidator failed on $file:\n", @log;
		$file = "$tmp/m.spv";
	}
	open(my $fh, '<:raw', $file) or die "foz-write.pl: $file: $!\n";
	local $/;
	my $code = <$fh>;
	close $fh;
	my %m = (flags => 0, codeSize => length $code);
	my $tail = '';
	if ($opt{base64}) {
		$m{code} = encode_base64($code, '');
	} else {
		$tail = varint(unpack('V*', $code));
		$m{varintOffset} = 0;
		$m{varintSize} = length $tail;
	}
	my $doc = $json->encode({ version => 6, shaderModules => { hash16($hash) => \%m } });
	return $opt{base64} ? $doc : "$doc\0$tail";
}

sub stage_info {
	my ($stage, $ref) = @_;
	my ($module, $entry) = split /:/, $ref;
	die "foz-write.pl: unknown stage '$stage'\n" unless exists $stage_bit{$stage};
	return { flags => 0, stage => $stage_bit{$stage}, module => hash16($module),
		 name => $entry // 'main' };
}

my @entries;	# [tag, hash, payload, pipeline object or undef]
my $last;	# the previous pipeline's stages, by stage name
open(my $in, '<', $spec) or die "foz-write.pl: $spec: $!\n";
while (my $line = <$in>) {
	$line =~ s/#.*//;
	my @w = split ' ', $line;
	next unless @w;
	my $kind = shift @w;
	if ($kind eq 'module') {
		push @entries, [4, $w[0], module_payload(@w)];
	} elsif ($kind eq 'graphics' || $kind eq 'library') {
		my $hash = shift @w;
		my %p = (flags => 0, basePipelineHandle => hash16(0), basePipelineIndex => -1,
			 layout => hash16(0), renderPass => hash16(0), subpass => 0, stages => []);
		if ($kind eq 'library') {
			$p{pNext} = [{ sType => 1000290000, libraries => [map { hash16($_) } @w] }];
		} else {
			push @{$p{stages}}, stage_info(split /=/, $_) for @w;
		}
		$last = { map { $_->{stage} => $_ } @{$p{stages}} };
		push @entries, [6, $hash, undef, { graphicsPipelines => { hash16($hash) => \%p } }];
	} elsif ($kind eq 'compute') {
		my %p = (flags => 0, basePipelineHandle => hash16(0), basePipelineIndex => -1,
			 layout => hash16(0), stage => stage_info('compute', $w[1]));
		$last = { 32 => $p{stage} };
		push @entries, [7, $w[0], undef, { computePipelines => { hash16($w[0]) => \%p } }];
	} elsif ($kind eq 'spec') {
		my $st = $last->{$stage_bit{shift @w} // 0} or die "foz-write.pl: spec: no such stage\n";
		my ($data, @map) = ('');
		for (@w) {
			my ($id, $v) = split /=/;
			push @map, { constantID => $id + 0, offset => length $data, size => 4 };
			$data .= pack('V', $v);
		}
		$st->{specializationInfo} = { dataSize => length $data,
					      data => encode_base64($data, ''), mapEntries => \@map };
	} elsif ($kind eq 'raw') {
		push @entries, [hex $w[0], $w[1], join(' ', @w[2 .. $#w])];
	} else {
		die "foz-write.pl: $spec:$.: unknown entry '$kind'\n";
	}
}
close $in;

open(my $fh, '>:raw', $out) or die "foz-write.pl: $out: $!\n";
print $fh "\x81FOSSILIZEDB\0\0\0\x06";
for my $e (@entries) {
	my ($tag, $hash, $payload, $obj) = @$e;
	$payload //= $json->encode({ version => 6, %$obj });
	my ($stored, $format) = ($payload, 1);
	($stored, $format) = (compress($payload), 2) if $opt{deflate};
	printf $fh "%024x%s", $tag, hash16($hash);
	print $fh pack('VVVV', length $stored, $format, $opt{crc} ? crc32($stored) : 0,
		       length $payload), $stored;
}
close $fh or die "foz-write.pl: $out: $!\n";
