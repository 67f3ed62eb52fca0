#!/usr/bin/perl
# asm-pack.pl PACK [PATH STAGE TARGET]: an independent reader of asm.pack
# (stats/SCHEMA.md) for the tests.  Lists "path<TAB>stage<TAB>target<TAB>size"
# per entry, or prints the text of the last entry of one key.  Exits 1 on a
# malformed pack.
use strict;
use warnings;
use Compress::Zlib;
use JSON::PP;

my ($file, @key) = @ARGV;
open(my $f, '<:raw', $file) or die "$file: $!\n";
my $magic = <$f>;
die "$file: no magic line\n" unless defined $magic && $magic eq "shdb-asm 1\n";
my $text;
while (my $line = <$f>) {
	die "$file: torn header\n" unless $line =~ /\n\z/;
	my $h = decode_json($line);
	read($f, my $z, $h->{zsize}) == $h->{zsize} or die "$file: torn entry\n";
	my $nl;
	read($f, $nl, 1) == 1 && $nl eq "\n" or die "$file: no newline after an entry\n";
	my $t = uncompress($z);
	die "$file: bad zlib data\n" unless defined $t && length($t) == $h->{size};
	if (@key) {
		$text = $t if $h->{path} eq $key[0] && $h->{stage} eq $key[1] && $h->{target} eq $key[2];
	} else {
		print join("\t", $h->{path}, $h->{stage}, $h->{target}, $h->{size}), "\n";
	}
}
if (@key) {
	exit 1 unless defined $text;
	print $text;
}
