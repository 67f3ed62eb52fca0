#include "common/lighting.hlsli"
#include "fog.hlsli"
cbuffer Scene : register(b0) { float4x4 ViewProj; float3 LightDir; };
Texture2D Albedo : register(t0);
SamplerState Linear : register(s0);
RWTexture2D<float4> Target : register(u0);
struct VSIn { float3 pos : POSITION; float3 normal : NORMAL; float2 uv : TEXCOORD0; };
struct PSIn { float4 pos : SV_Position; float3 normal : NORMAL; float2 uv : TEXCOORD0; };

PSIn VSMain(VSIn i)
{
	PSIn o;
	o.pos = mul(ViewProj, float4(i.pos, 1.0));
	o.normal = i.normal;
	o.uv = i.uv;
	return o;
}

float4 PSMain(PSIn i) : SV_Target
{
	return Fog(float4(Lambert(normalize(i.normal), LightDir, Albedo.Sample(Linear, i.uv).rgb), 1.0));
}

[numthreads(8, 8, 1)]
void Darken(uint3 id : SV_DispatchThreadID) { Target[id.xy] = Target[id.xy] * 0.5; }

[numthreads(64, 1, 1)]
void Clear(uint3 id : SV_DispatchThreadID) { Target[id.xy] = 0.0; }
