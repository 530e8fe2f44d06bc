<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="terrain" tilewidth="74" tileheight="64" tilecount="5" columns="0">
  <grid orientation="orthogonal" width="1" height="1"/>
  <tile id="0"><properties><property name="terrain" value="open"/></properties></tile>
  <tile id="1"><properties><property name="terrain" value="wall"/></properties></tile>
  <tile id="2"><properties><property name="terrain" value="water"/></properties></tile>
  <tile id="3" type="brush"/>
  <tile id="4"><properties><property name="terrain" value="rubble"/></properties></tile>
 </tileset>
