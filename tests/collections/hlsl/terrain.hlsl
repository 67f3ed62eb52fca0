// a tessellated terrain patch: a hull shader with its patch-constant
// function and a domain shader, each named only by its attributes (a hull
// shader's [outputtopology] is not a mesh shader's)
struct VSOut { float4 pos : POSITION; float2 uv : TEXCOORD0; };
struct HSOut { float4 pos : POSITION; float2 uv : TEXCOORD0; };
struct PatchOut { float edges[4] : SV_TessFactor; float inside[2] : SV_InsideTessFactor; };
struct DSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; };
cbuffer Terrain : register(b0) { float4x4 ViewProj; float Level; float Height; };
Texture2D HeightMap : register(t1);
SamplerState Linear : register(s1);

PatchOut Factors(InputPatch<VSOut, 4> patch)
{
	PatchOut o;
	for (int i = 0; i < 4; i++)
		o.edges[i] = Level * (1.0 + patch[i].uv.x);
	o.inside[0] = o.inside[1] = Level;
	return o;
}

[domain("quad")]
[partitioning("integer")]
[outputtopology("triangle_cw")]
[outputcontrolpoints(4)]
[patchconstantfunc("Factors")]
HSOut Hull(InputPatch<VSOut, 4> patch, uint id : SV_OutputControlPointID)
{
	HSOut o;
	o.pos = patch[id].pos;
	o.uv = patch[id].uv;
	return o;
}

[domain("quad")]
DSOut Domain(PatchOut factors, float2 at : SV_DomainLocation, const OutputPatch<HSOut, 4> patch)
{
	DSOut o;
	float4 p = lerp(lerp(patch[0].pos, patch[1].pos, at.x), lerp(patch[3].pos, patch[2].pos, at.x), at.y);
	o.uv = lerp(lerp(patch[0].uv, patch[1].uv, at.x), lerp(patch[3].uv, patch[2].uv, at.x), at.y);
	p.y += HeightMap.SampleLevel(Linear, o.uv, 0).r * Height;
	o.pos = mul(ViewProj, p);
	return o;
}
